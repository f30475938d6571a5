/**
 * Issue 22's CMS scenario: a program manager builds an earning rule in the CMS and tests an event
 * against it there; the tenant's backend then reports the event through the gateway (signed with
 * an API key), and the customer's page shows the event with the XP the rule gave.
 */
import { screenshot } from './browser';
import { APPEAR_MS, factShown, navigate, present, visit } from './support';
import { ADMIN_EMAIL, dataOf, gatewayOf, requireTenant, type World } from './world';

const RULE = 'Coffee orders';
const EVENT_TYPE = 'order.paid';
const CUSTOMER = 'e2e-customer-2';
const ORDER = 'e2e-order-2';
/** 2 XP per unit of `total`: 12.5 gives floor(25) = 25 XP. */
const TOTAL = 12.5;
const EXPECTED_XP = '25';

async function createRule(world: World): Promise<void> {
  const page = world.admin;
  await navigate(page, 'Earning rules');
  await (await present(page.getByRole('button', { name: 'New rule' }), '"New rule" button')).click();
  const form = page.getByRole('form', { name: 'Earning rule' });
  await form.getByLabel('Name').fill(RULE);
  await form.getByLabel('Event type').fill(EVENT_TYPE);
  await form.getByRole('button', { name: 'Add condition' }).click();
  const condition = form.getByRole('group', { name: 'Condition 1' });
  await condition.getByLabel('Property').fill('total');
  await condition.getByLabel('Comparison').selectOption({ label: '≥' });
  await condition.getByLabel('Value').fill('5');
  const effect = form.getByRole('group', { name: 'Effect' });
  await effect.getByLabel('Gives').selectOption('per_unit');
  await effect.getByLabel('Property').fill('total');
  await effect.getByLabel('XP per unit').fill('2');
  await form.getByRole('button', { name: 'Add limit' }).click();
  await form.getByRole('group', { name: 'Limit 1' }).getByLabel('Max times').fill('3');
  await screenshot(page, 'earning-rule-form');
  await form.getByRole('button', { name: 'Create rule' }).click();
  await page.getByRole('table', { name: 'Earning rules' }).getByRole('link', { name: RULE }).waitFor({ timeout: APPEAR_MS });
}

/** The CMS's "Test an event": the rule would apply with its amount, and nothing is written. */
async function testAnEvent(world: World, customerId: string): Promise<void> {
  const page = world.admin;
  const test = page.getByRole('form', { name: 'Test an event' });
  await test.getByLabel('Customer id').fill(customerId);
  await test.getByLabel('Event type').fill(EVENT_TYPE);
  await test.getByLabel('Properties (JSON)').fill(JSON.stringify({ total: TOTAL }));
  await test.getByRole('button', { name: 'Test event' }).click();
  const row = page.getByRole('table', { name: 'Rules for this event' }).getByRole('row').filter({ hasText: RULE });
  await row.getByText('applied', { exact: true }).waitFor({ timeout: APPEAR_MS });
  const xp = (await row.getByRole('cell').nth(3).innerText()).trim();
  if (xp !== EXPECTED_XP) throw new Error(`the test of an event says the rule gives ${xp} XP, expected ${EXPECTED_XP}`);
  await screenshot(page, 'earning-rules');
}

async function earnThroughARule(world: World): Promise<void> {
  const tenantId = requireTenant(world);
  const gateway = await gatewayOf(world, tenantId);
  const customer = dataOf('upsert a customer through the gateway', await gateway.gatewayUpsertCustomer({ body: { external_id: CUSTOMER, email: 'sam@example.com', username: 'sam' } }));
  await createRule(world);
  await testAnEvent(world, customer.id);
  const page = world.admin;
  await visit(page, world.stack, `/t/${tenantId}/customers/${customer.id}`, ADMIN_EMAIL);
  await page.getByText('Lifetime XP').first().waitFor({ timeout: APPEAR_MS });
  const before = await factShown(page, 'Lifetime XP');
  if (before !== '0') throw new Error(`the customer has ${before} lifetime XP before the event: the test of an event wrote something`);

  const event = dataOf('send an event through the gateway', await gateway.gatewayRecordEvent({ body: { user_id: customer.id, type: EVENT_TYPE, properties: { total: TOTAL }, reference: ORDER } }));
  if (event.xp_awarded !== EXPECTED_XP) throw new Error(`the gateway awarded ${event.xp_awarded} XP for the event, expected ${EXPECTED_XP}`);
  // A fresh load, as a manager coming back to the page would: the CMS asks the API again.
  await visit(page, world.stack, `/t/${tenantId}/customers/${customer.id}`, ADMIN_EMAIL);
  const row = page.getByRole('table', { name: 'Events' }).getByRole('row').filter({ hasText: ORDER });
  await row.getByText(`${RULE}: ${EXPECTED_XP} XP`).waitFor({ timeout: APPEAR_MS });
  const after = await factShown(page, 'Lifetime XP');
  if (after !== EXPECTED_XP) throw new Error(`the customer page shows ${after} lifetime XP after the event, expected ${EXPECTED_XP}`);
  await page.getByRole('table', { name: 'Ledger' }).getByRole('row').filter({ hasText: 'Earned' }).filter({ hasText: EXPECTED_XP }).first().waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'customer-events');

  // The rule's counters count the effect.
  await navigate(page, 'Earning rules');
  const ruleRow = page.getByRole('table', { name: 'Earning rules' }).getByRole('row').filter({ hasText: RULE });
  await ruleRow.getByRole('cell', { name: EXPECTED_XP, exact: true }).waitFor({ timeout: APPEAR_MS });
}

export const earningScenarios: Array<[string, (world: World) => Promise<void>]> = [
  ["create an earning rule in the CMS, test an event, send it through the gateway and see the XP on the customer's page", earnThroughARule],
];
