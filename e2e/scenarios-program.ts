/**
 * The program scenarios, in order, on the tenant "create a tenant" made: a tier and a
 * reward, XP earned through the gateway moving a customer into the tier, a redemption cancelled,
 * a cohort counted, an API key created and revoked, XP earned through an earning rule
 * (scenarios-earning.ts), the point lifecycle's settings and a pending credit (scenarios-points.ts),
 * and a viewer who sees no write controls.
 */
import type { Page } from 'playwright-core';
import { screenshot } from './browser';
import { earningScenarios } from './scenarios-earning';
import { operationsScenarios } from './scenarios-operations';
import { pointsScenarios } from './scenarios-points';
import { sessionRenews } from './scenarios-oidc';
import { APPEAR_MS, navigate, newPage, present, visit } from './support';
import { ADMIN_EMAIL, dataOf, gatewayOf, portalAs, requireTenant, VIEWER_EMAIL, type World } from './world';

const TIER = 'Gold';
const TIER_XP = 1000;
const REWARD = 'Free coffee';
const CUSTOMER = 'e2e-customer-1';

/** A dialog's field, by its label. */
const dialog = (page: Page) => page.getByRole('dialog');

async function createTier(world: World): Promise<void> {
  requireTenant(world);
  const page = world.admin;
  await navigate(page, 'Tiers');
  await (await present(page.getByRole('button', { name: 'New tier' }), '"New tier" button')).click();
  await dialog(page).getByLabel('Name').fill(TIER);
  await dialog(page).getByLabel('Minimum lifetime XP').fill(String(TIER_XP));
  await dialog(page).getByLabel('Color').fill('#d4a017');
  await dialog(page).getByRole('button', { name: 'Create tier' }).click();
  await page.getByRole('table', { name: 'Tiers' }).getByRole('cell', { name: TIER }).waitFor({ timeout: APPEAR_MS });
  world.tierName = TIER;
  await screenshot(page, 'tiers');
}

async function createReward(world: World): Promise<void> {
  requireTenant(world);
  const page = world.admin;
  await navigate(page, 'Rewards');
  await (await present(page.getByRole('button', { name: 'New reward' }), '"New reward" button')).click();
  await dialog(page).getByLabel('Title').fill(REWARD);
  await dialog(page).getByLabel('XP cost').fill('300');
  await dialog(page).getByLabel('Status').selectOption('active');
  await dialog(page).getByLabel('Stock').fill('10');
  await screenshot(page, 'reward-form');
  await dialog(page).getByRole('button', { name: 'Create reward' }).click();
  await page.getByRole('table', { name: 'Rewards' }).getByText(REWARD).first().waitFor({ timeout: APPEAR_MS });
  world.rewardTitle = REWARD;
  await screenshot(page, 'rewards');
}

/** The customer's page, found through the Customers list's search by external id. */
async function openCustomer(page: Page): Promise<void> {
  await navigate(page, 'Customers');
  await page.getByLabel('External id').fill(CUSTOMER);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('table', { name: 'Customers' }).getByRole('link').first().click();
  await page.getByText('Lifetime XP').first().waitFor({ timeout: APPEAR_MS });
}

/** The text next to "Tier" on the customer page. */
async function tierShown(page: Page): Promise<string> {
  const term = page.getByText('Tier', { exact: true }).first();
  return (await term.locator('xpath=following-sibling::*[1]').innerText()).trim();
}

async function earnXpAndSeeTier(world: World): Promise<void> {
  const tenantId = requireTenant(world);
  if (!world.tierName) throw new Error('no tier: "create a tier" did not pass');
  const gateway = await gatewayOf(world, tenantId);
  const customer = dataOf('upsert a customer through the gateway', await gateway.gatewayUpsertCustomer({ body: { external_id: CUSTOMER, email: 'jane@example.com', username: 'jane' } }));
  const page = world.admin;
  await openCustomer(page);
  const before = await tierShown(page);
  if (before === TIER) throw new Error(`the customer is in ${TIER} before earning anything`);
  dataOf('earn XP through the gateway', await gateway.gatewayEarnXp({ body: { user_id: customer.id, type: 'xp_earn', amount: String(TIER_XP + 200), metadata: { order_id: 'e2e-order-1' } } }));
  // A fresh load, as a manager coming back to the page would: the CMS asks the API again.
  await visit(page, world.stack, new URL(page.url()).pathname, ADMIN_EMAIL);
  await page.getByText('Lifetime XP').first().waitFor({ timeout: APPEAR_MS });
  const after = await tierShown(page);
  if (after !== TIER) throw new Error(`the customer page shows tier "${after}" after ${TIER_XP + 200} XP, expected ${TIER} (before: "${before}")`);
  await screenshot(page, 'customer');
  await navigate(page, 'Customers');
  await page.getByRole('table', { name: 'Customers' }).waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'customers');
}

async function redeemAndCancel(world: World): Promise<void> {
  const tenantId = requireTenant(world);
  if (!world.rewardTitle) throw new Error('no reward: "create a reward" did not pass');
  const gateway = await gatewayOf(world, tenantId);
  const customers = dataOf('find the customer', await gateway.gatewayListCustomers({ params: { query: { external_id: CUSTOMER } } }));
  const rewards = dataOf('list rewards', await gateway.gatewayListRewards({}));
  const customer = customers.items[0];
  const reward = rewards.items.find((item) => item.title === REWARD);
  if (!customer || !reward) throw new Error('the customer or the reward is not there');
  dataOf('redeem through the gateway', await gateway.gatewayCreateRedemption({ body: { user_id: customer.id, reward_id: reward.id } }));
  const page = world.admin;
  await navigate(page, 'Redemptions');
  const table = page.getByRole('table', { name: 'Redemptions' });
  await table.getByRole('row').filter({ hasText: REWARD }).first().getByRole('link').first().click();
  await (await present(page.getByRole('button', { name: 'Cancel redemption' }), '"Cancel redemption" button')).click();
  await screenshot(page, 'cancel-redemption');
  await dialog(page).getByRole('button', { name: 'Cancel redemption' }).click();
  await page.getByText('canceled', { exact: true }).first().waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'redemption');
}

/**
 * The rule builder: "tier is Gold" counts the customer who earned into it; refined on the cohort
 * page to "lifetime XP >= 5000", the live count drops to 0 once the rules are saved.
 */
/** The dashboard once there is something to show: the redemption among the recent ones. */
async function dashboardWithData(world: World): Promise<void> {
  requireTenant(world);
  const page = world.admin;
  await navigate(page, 'Dashboard');
  await page.getByRole('table', { name: 'Recent redemptions' }).getByText(REWARD).first().waitFor({ timeout: APPEAR_MS });
  // A tooltip open while the window narrows keeps its old place until the pointer moves: it must
  // not widen the phone's page (the screenshot's width check, at 390 px, sees it).
  const chart = await page.locator('.chart').first().boundingBox();
  if (chart) await page.mouse.move(chart.x + chart.width * 0.9, chart.y + chart.height / 2);
  await screenshot(page, 'dashboard-with-data');
  await page.mouse.move(0, 0);
}

async function cohortCount(world: World): Promise<void> {
  const page = world.admin;
  if (!world.tierName) throw new Error('no tier: "create a tier" did not pass');
  await navigate(page, 'Cohorts');
  await (await present(page.getByRole('button', { name: 'New cohort' }), '"New cohort" button')).click();
  await dialog(page).getByLabel('Name', { exact: true }).fill('Gold customers');
  const first = dialog(page).getByRole('group', { name: 'Condition 1' });
  await first.getByLabel('Field').selectOption({ label: 'Tier' });
  await first.getByLabel('Value').selectOption({ label: TIER });
  await screenshot(page, 'cohort-new');
  await dialog(page).getByRole('button', { name: 'Create cohort' }).click();
  const main = page.getByRole('main');
  await main.getByText(/^1 members?$/).waitFor({ timeout: APPEAR_MS });
  await page.getByRole('table', { name: 'Cohort members' }).getByText('jane').first().waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'cohort');
  const condition = main.getByRole('group', { name: 'Condition 1' });
  await condition.getByLabel('Field').selectOption({ label: 'Lifetime XP' });
  await condition.getByLabel('Comparison').selectOption({ label: '≥' });
  await condition.getByLabel('Value').fill('5000');
  await main.getByText(/^0 members$/).waitFor({ timeout: APPEAR_MS });
  await main.getByText('Exact for the current data.').waitFor({ timeout: APPEAR_MS });
}

async function apiKeyCreateAndRevoke(world: World): Promise<void> {
  requireTenant(world);
  const page = world.admin;
  await navigate(page, 'API keys');
  await (await present(page.getByRole('button', { name: 'New API key' }), '"New API key" button')).click();
  await dialog(page).getByLabel('Name').fill('Checkout backend');
  await dialog(page).getByRole('button', { name: 'Create key' }).click();
  const secret = dialog(page).getByText(/^sk_/).first();
  await secret.waitFor({ timeout: APPEAR_MS });
  await present(dialog(page).getByRole('button', { name: /copy/i }), 'copy button next to the new secret');
  await screenshot(page, 'api-key-secret');
  await dialog(page).getByRole('button', { name: 'I have stored it' }).click();
  const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Checkout backend' });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await dialog(page).getByRole('button', { name: 'Revoke' }).click();
  await row.getByText('revoked').first().waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'api-keys');
}

/** Invited as viewer (through the API, then signed in with the dev flow in a browser of their own). */
async function viewerSeesNoWriteControls(world: World): Promise<void> {
  const tenantId = requireTenant(world);
  dataOf('invite a viewer', await portalAs(world.stack, ADMIN_EMAIL).inviteMember({ params: { path: { tenantId } }, body: { email: VIEWER_EMAIL, role: 'viewer' } }));
  const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await newPage(context);
    await visit(page, world.stack, `/t/${tenantId}`, VIEWER_EMAIL);
    const writes = /^(new|create|edit|delete|remove|revoke|invite|cancel redemption|adjust|save)\b/i;
    for (const section of ['Dashboard', 'Customers', 'Tiers', 'Rewards', 'Earning rules', 'Redemptions', 'Attributes', 'Cohorts', 'Onchain assets', 'API keys', 'Members', 'Webhooks', 'Program settings']) {
      const link = page.getByRole('navigation').getByRole('link', { name: section, exact: true });
      if (!(await link.isVisible())) continue; // a section a viewer may not open is not offered at all
      await link.click();
      await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor({ timeout: APPEAR_MS });
      await page.waitForLoadState('networkidle');
      const buttons = await page.getByRole('main').getByRole('button').allInnerTexts();
      const offending = buttons.filter((text) => writes.test(text.trim()));
      if (offending.length > 0) throw new Error(`a viewer sees write controls on ${section}: ${offending.join(', ')}`);
    }
    await navigate(page, 'Tiers');
    await screenshot(page, 'viewer-tiers');
  } finally {
    await context.close();
  }
}

/** Sign-out ends the provider's session too: the next "Sign in" asks for an email again. */
async function signOut(world: World): Promise<void> {
  const page = world.admin;
  await page.getByRole('button', { name: 'Sign out' }).click();
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await signIn.waitFor({ timeout: APPEAR_MS });
  if (!page.url().startsWith(world.stack.baseUrl)) throw new Error(`sign-out ended at ${page.url()}, not back in the CMS`);
  await signIn.click();
  await page.getByLabel('Email').waitFor({ timeout: APPEAR_MS });
}

export const programScenarios: Array<[string, (world: World) => Promise<void>]> = [
  ['create a tier', createTier],
  ['create a reward', createReward],
  ["earn XP through the gateway and see the customer's tier change", earnXpAndSeeTier],
  ['redeem (gateway) and cancel (CMS)', redeemAndCancel],
  ['the dashboard shows the recent redemption', dashboardWithData],
  ['build a cohort and see its count', cohortCount],
  ['create and revoke an API key', apiKeyCreateAndRevoke],
  ...earningScenarios,
  ...pointsScenarios,
  ...operationsScenarios,
  ['a viewer sees no write controls', viewerSeesNoWriteControls],
  ['the CMS renews its session before the token expires, and uses the new token', sessionRenews],
  ["sign out, which ends the dev sign-in's session too", signOut],
];
