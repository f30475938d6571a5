/**
 * Issue 23's CMS scenario: an admin switches the point lifecycle on in Program settings (points
 * pending for a day, valid 90 days, expiring at the end of the day); a credit the tenant's backend
 * then makes through the gateway shows on the customer's page as pending XP and as a pending lot
 * with the date it becomes spendable; an editor (who edits the program, not its settings) reads
 * the settings in words, with nothing to save. Then tiers move to XP earned in a year, and the
 * customer in Gold keeps it until the review its page shows.
 */
import type { Page } from 'playwright-core';
import { screenshot } from './browser';
import { APPEAR_MS, factShown, navigate, newPage, visit } from './support';
import { ADMIN_EMAIL, dataOf, gatewayOf, portalAs, requireTenant, type World } from './world';

const EDITOR_EMAIL = 'e2e-editor@example.com';
const CUSTOMER = 'e2e-customer-3';
/** The customer scenarios-program.ts moves into Gold on lifetime XP. */
const GOLD_CUSTOMER = 'e2e-customer-1';
const CREDIT_XP = '40';
const DAY_MS = 86_400_000;
const SAVED = 'Points and tiers saved. They apply to credits made from now on.';

/** One duration of the form (a fieldset named by its legend): its amount and unit. */
const duration = (page: Page, legend: string) => page.getByRole('group', { name: legend, exact: true });

async function setDuration(page: Page, legend: string, amount: string, unit: string): Promise<void> {
  await duration(page, legend).getByLabel('Unit').selectOption(unit);
  await duration(page, legend).getByLabel('Amount').fill(amount);
}

async function expectDuration(page: Page, legend: string, amount: string, unit: string, iso: string): Promise<void> {
  const group = duration(page, legend);
  const shown = [await group.getByLabel('Amount').inputValue(), await group.getByLabel('Unit').inputValue()];
  if (shown.join(' ') !== `${amount} ${unit}`) throw new Error(`after a reload, ${legend} shows "${shown.join(' ')}", expected "${amount} ${unit}"`);
  await group.getByText(`Saves ${iso}`).waitFor({ timeout: APPEAR_MS });
}

/** The admin saves the lifecycle; a fresh load (the CMS asks the API again) shows what was saved. */
async function saveLifecycle(world: World, tenantId: string): Promise<void> {
  const page = world.admin;
  await navigate(page, 'Program settings');
  await page.getByRole('form', { name: 'Points and tiers' }).waitFor({ timeout: APPEAR_MS });
  // The expected dates below are worked out in UTC, the zone a new tenant starts with.
  const zone = await factShown(page, 'Time zone');
  if (zone !== 'UTC') throw new Error(`the new tenant's time zone is ${zone}, not UTC`);
  await setDuration(page, 'Pending period', '1', 'days');
  await setDuration(page, 'Validity', '90', 'days');
  await page.getByLabel('Expiry rounding').selectOption({ label: 'End of the day' });
  await page.getByRole('button', { name: 'Save points and tiers' }).click();
  await page.getByText(SAVED).waitFor({ timeout: APPEAR_MS });

  await visit(page, world.stack, `/t/${tenantId}/program-settings`, ADMIN_EMAIL);
  await page.getByRole('form', { name: 'Points and tiers' }).waitFor({ timeout: APPEAR_MS });
  await expectDuration(page, 'Pending period', '1', 'days', 'P1D');
  await expectDuration(page, 'Validity', '90', 'days', 'P90D');
  const rounding = await page.getByLabel('Expiry rounding').inputValue();
  if (rounding !== 'end_of_day') throw new Error(`after a reload, Expiry rounding is "${rounding}", expected end_of_day`);
  if ((await factShown(page, 'Last saved')).startsWith('Never')) throw new Error('after saving, the settings still say they were never saved');
  await screenshot(page, 'program-settings');
}

/** "3 Jul 2026" and "14:05" of an instant in UTC, as the CMS's dates read (format.ts dateTime). */
function utcParts(iso: string): [string, string] {
  const date = new Date(iso);
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][date.getUTCMonth()];
  const pad = (value: number) => String(value).padStart(2, '0');
  return [`${date.getUTCDate()} ${month} ${date.getUTCFullYear()}`, `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`];
}

/** The first instant of the UTC day after `ms`'s (an instant at midnight stays). */
const endOfUtcDay = (ms: number) => Math.ceil(ms / DAY_MS) * DAY_MS;

/**
 * A credit through the gateway under those settings: pending until a day later, expiring at the
 * end of the day 90 days after that, and shown so on the customer's page.
 */
async function pendingCredit(world: World, tenantId: string): Promise<void> {
  const gateway = await gatewayOf(world, tenantId);
  const customer = dataOf('upsert a customer through the gateway', await gateway.gatewayUpsertCustomer({ body: { external_id: CUSTOMER, email: 'lee@example.com', username: 'lee' } }));
  const before = Date.now();
  const credit = dataOf('earn XP through the gateway', await gateway.gatewayEarnXp({ body: { user_id: customer.id, type: 'xp_earn', amount: CREDIT_XP, metadata: { order_id: 'e2e-order-3' } } }));
  const after = Date.now();
  if (credit.status !== 'pending') throw new Error(`the credit is ${credit.status}, expected pending for the pending period`);
  const lots = dataOf('list the point lots through the gateway', await gateway.gatewayListCustomerPointLots({ params: { path: { userId: customer.id } } }));
  const lot = lots.items.find((item) => item.internal_transaction_id === credit.id);
  if (!lot || lot.status !== 'pending') throw new Error(`no pending lot for the credit: ${JSON.stringify(lots.items)}`);
  const availableAt = Date.parse(lot.available_at);
  if (availableAt < before + DAY_MS - 1_000 || availableAt > after + DAY_MS + 1_000) throw new Error(`the lot is available from ${lot.available_at}, not a day after the credit`);
  const expected = new Date(endOfUtcDay(availableAt + 90 * DAY_MS)).toISOString();
  if (lot.expires_at !== expected) throw new Error(`the lot expires at ${lot.expires_at}, expected ${expected} (90 days after it is available, at the end of that day)`);

  const page = world.admin;
  await visit(page, world.stack, `/t/${tenantId}/customers/${customer.id}`, ADMIN_EMAIL);
  await page.getByText('Pending XP', { exact: true }).first().waitFor({ timeout: APPEAR_MS });
  const pending = await factShown(page, 'Pending XP');
  if (!pending.startsWith(`${CREDIT_XP} `)) throw new Error(`the customer page shows "${pending}" pending XP, expected ${CREDIT_XP}`);
  const spendable = await factShown(page, 'Spendable XP');
  if (spendable !== '0') throw new Error(`the customer page shows ${spendable} spendable XP while the credit is pending, expected 0`);
  const row = page.getByRole('table', { name: 'Point lots' }).getByRole('row').filter({ hasText: 'pending' });
  await row.first().waitFor({ timeout: APPEAR_MS });
  const cells = await row.first().getByRole('cell').allInnerTexts();
  const [availableDay, availableTime] = utcParts(lot.available_at);
  const [expiryDay, expiryTime] = utcParts(expected);
  const wanted: Array<[string, boolean]> = [
    ['amount', cells[0]?.trim() === CREDIT_XP],
    ['available from', Boolean(cells[3]?.includes(availableDay) && cells[3].includes(availableTime))],
    ['expires at', Boolean(cells[4]?.includes(expiryDay) && cells[4].includes(expiryTime))],
  ];
  const wrong = wanted.filter(([, ok]) => !ok).map(([name]) => name);
  if (wrong.length > 0) throw new Error(`the pending lot's row shows the wrong ${wrong.join(', ')}: ${cells.join(' | ')} (expected ${CREDIT_XP}, ${availableDay} ${availableTime}, ${expiryDay} ${expiryTime})`);
  await screenshot(page, 'customer-points');
}

/** An editor (invited through the API, signed in with the dev flow in a browser of their own). */
async function editorReadsSettings(world: World, tenantId: string): Promise<void> {
  dataOf('invite an editor', await portalAs(world.stack, ADMIN_EMAIL).inviteMember({ params: { path: { tenantId } }, body: { email: EDITOR_EMAIL, role: 'editor' } }));
  const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await newPage(context);
    await visit(page, world.stack, `/t/${tenantId}/program-settings`, EDITOR_EMAIL);
    await page.getByText('Admins change the program settings.').waitFor({ timeout: APPEAR_MS });
    const expected: Array<[string, string]> = [['Pending period', '1 day (P1D)'], ['Validity', '90 days (P90D)'], ['Expiry rounding', 'End of the day']];
    for (const [label, words] of expected) {
      const shown = await factShown(page, label);
      if (shown !== words) throw new Error(`an editor sees ${label} "${shown}", expected "${words}"`);
    }
    const buttons = await page.getByRole('main').getByRole('button').allInnerTexts();
    const saves = buttons.filter((text) => /save/i.test(text));
    if (saves.length > 0) throw new Error(`an editor sees ${saves.join(', ')} on Program settings`);
    await screenshot(page, 'program-settings-editor');
  } finally {
    await context.close();
  }
}

/** The first instant of a UTC month at or after a year past `ms`: a monthly review in UTC. */
function monthlyReviewAYearAfter(ms: number): string {
  const end = new Date(ms);
  end.setUTCFullYear(end.getUTCFullYear() + 1);
  const review = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
  if (review.getTime() < end.getTime()) review.setUTCMonth(review.getUTCMonth() + 1);
  return review.toISOString();
}

/**
 * The admin moves tiers to XP earned in a year, reviewed monthly: the customer who reached Gold on
 * lifetime XP ("earn XP through the gateway…") keeps it, and its page says until which review.
 */
async function tiersEarnedInAPeriod(world: World): Promise<void> {
  const tenantId = requireTenant(world);
  const page = world.admin;
  await visit(page, world.stack, `/t/${tenantId}/program-settings`, ADMIN_EMAIL);
  await page.getByRole('form', { name: 'Points and tiers' }).waitFor({ timeout: APPEAR_MS });
  await page.getByLabel('Tier basis').selectOption({ label: 'XP earned in a period' });
  await setDuration(page, 'Tier period', '1', 'years');
  await page.getByLabel('Downgrade').selectOption({ label: 'One tier down' });
  await page.getByLabel('Review', { exact: true }).selectOption({ label: 'Monthly' });
  const before = Date.now();
  await page.getByRole('button', { name: 'Save points and tiers' }).click();
  await page.getByText(SAVED).waitFor({ timeout: APPEAR_MS });
  const after = Date.now();

  const gateway = await gatewayOf(world, tenantId);
  const [customer] = dataOf('find the Gold customer', await gateway.gatewayListCustomers({ params: { query: { external_id: GOLD_CUSTOMER } } })).items;
  if (!customer) throw new Error(`no customer ${GOLD_CUSTOMER}: "earn XP through the gateway…" did not pass`);
  await visit(page, world.stack, `/t/${tenantId}/customers/${customer.id}`, ADMIN_EMAIL);
  await page.getByText('Tier kept until', { exact: true }).waitFor({ timeout: APPEAR_MS });
  const tier = await factShown(page, 'Tier');
  if (tier !== 'Gold') throw new Error(`after the switch the customer page shows tier "${tier}", expected Gold kept until its review`);
  const kept = await factShown(page, 'Tier kept until');
  const reviews = [...new Set([monthlyReviewAYearAfter(before), monthlyReviewAYearAfter(after)])].map((review) => utcParts(review).join(', '));
  if (!reviews.some((review) => kept.startsWith(review))) throw new Error(`the customer page shows "${kept}" as the tier's review, expected ${reviews.join(' or ')}`);
  await screenshot(page, 'customer-tier-held');
}

async function pointLifecycle(world: World): Promise<void> {
  const tenantId = requireTenant(world);
  await saveLifecycle(world, tenantId);
  await pendingCredit(world, tenantId);
  await editorReadsSettings(world, tenantId);
}

export const pointsScenarios: Array<[string, (world: World) => Promise<void>]> = [
  ["set the point lifecycle in Program settings, see a gateway credit pending on the customer's page, and an editor read the settings without a save", pointLifecycle],
  ['move tiers to XP earned in a year: the Gold customer keeps Gold, its page says until which review', tiersEarnedInAPeriod],
];
