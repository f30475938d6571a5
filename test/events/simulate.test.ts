import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { eventDryRunSchema, eventSchema, simulationSchema } from '../../src/schemas/event';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { createCustomerViaApi, createTierViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { createRuleViaApi, EVENTS_PATH, recordEvent, ruleViaApi, simulateCall } from '../support/rules';
import { tenantPath } from '../support/segments';
import { addMember, createTenant, createTestApiKey, gatewayCall, otherTenants, portalCall, type TestApiKey, type TestTenant } from '../support/world';

/**
 * `POST /tenant/{t}/earning-rules/simulate` and `POST /gateway/events?dry_run=true` (CONTRACT.md,
 * Events and earning rules): every rule explained, nothing written, and the same answer as the
 * event then recorded.
 */

async function setup(label = 'simulate', given?: TestTenant) {
  const tenant = given ?? (await createTenant(label));
  const key = await createTestApiKey(tenant.id);
  const customer = await createCustomerViaApi(key);
  return { tenant, key, customer };
}

const dryRun = (key: TestApiKey, body: Record<string, unknown>, idempotencyKey?: string) =>
  gatewayCall(key, 'POST', `${EVENTS_PATH}?dry_run=true`, { body: { type: 'order.paid', ...body }, idempotencyKey });

/** What the tenant has written for a customer: XP, events, transactions. */
async function written(key: TestApiKey, userId: string) {
  const customer = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/customers/${userId}`), 200, customerSchema);
  const events = expectOk(await gatewayCall(key, 'GET', `${EVENTS_PATH}?user_id=${userId}`), 200, pageSchema(eventSchema));
  const transactions = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions?user_id=${userId}`), 200, pageSchema(internalTransactionSchema));
  return { xp: customer.xp_balance, events: events.total_count, transactions: transactions.total_count };
}

describe('simulate', () => {
  it('explains every rule of the type, and agrees with the dry run and with the event then recorded', async () => {
    const { tenant, key, customer } = await setup();
    await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
    const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 100);
    expect((await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: '150' } })).status).toBe(201);
    const hour = 3_600_000;
    const rule = (priority: number, name: string, body: Record<string, unknown> = {}) => createRuleViaApi(tenant.owner, tenant.id, { name, priority, ...body });
    const bigOrders = { operator: 'and', predicates: [{ type: 'property', key: 'total', op: 'gt', value: '100' }] };
    const perCoupon = { kind: 'per_unit', property: 'coupon_value', xp_per_unit: '1' };
    await rule(100, 'paused', { status: 'paused' });
    await rule(95, 'archived', { status: 'archived' });
    await rule(90, 'ended', { ends_at: new Date(Date.now() - hour).toISOString() });
    await rule(85, 'not yet', { starts_at: new Date(Date.now() + hour).toISOString() });
    await rule(80, 'big orders', { conditions: bigOrders });
    await rule(75, 'per coupon', { effect: perCoupon });
    await rule(72, 'thirty, 50 a day', { effect: { kind: 'fixed', amount: '30' }, limits: { per_customer: [{ period: 'day', max_xp: '50' }] } });
    await rule(70, 'once a day, exclusive', { stackable: false, effect: { kind: 'fixed', amount: '5' }, limits: { per_customer: [{ period: 'day', max_times: 1 }] } });
    await rule(50, 'gold bonus', { multipliers: [{ tier_id: gold.id, factor: '1.5' }] });
    const exclusive = await rule(40, 'exclusive', { stackable: false, effect: { kind: 'fixed', amount: '7' } });
    await rule(30, 'stopped', { effect: { kind: 'fixed', amount: '3' } });
    await rule(20, 'no xp below the stop', { effect: perCoupon });
    await rule(10, 'conditions below the stop', { conditions: bigOrders });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'another type', event_type: 'review.posted' });
    // Uses the day's limits of the two capped rules (and is stopped by the second).
    const earlier = await recordEvent(key, { user_id: customer.id, properties: { total: 50 } });
    expect(earlier.effects.map((effect) => [effect.rule_name, effect.amount])).toEqual([['thirty, 50 a day', '30'], ['once a day, exclusive', '5']]);
    const before = await written(key, customer.id);
    expect(before).toEqual({ xp: '185', events: 1, transactions: 3 });

    const res = await simulateCall(tenant.owner, tenant.id, { user_id: customer.id, properties: { total: 50 } });
    const simulation = expectOk(res, 200, simulationSchema);
    expect(simulation).toMatchObject({ user_id: customer.id, type: 'order.paid', xp_awarded: '42' });
    expect(simulation.rules.map((outcome) => [outcome.rule_name, outcome.priority, outcome.applied, outcome.amount, outcome.capped, outcome.reason])).toEqual([
      ['paused', 100, false, '0', false, 'inactive'],
      ['archived', 95, false, '0', false, 'inactive'],
      ['ended', 90, false, '0', false, 'outside_window'],
      ['not yet', 85, false, '0', false, 'outside_window'],
      ['big orders', 80, false, '0', false, 'conditions'],
      ['per coupon', 75, false, '0', false, 'no_xp'],
      ['thirty, 50 a day', 72, true, '20', true, null],
      ['once a day, exclusive', 70, false, '0', true, 'capped'],
      ['gold bonus', 50, true, '15', false, null],
      ['exclusive', 40, true, '7', false, null],
      ['stopped', 30, false, '0', false, `stopped_by:${exclusive.id}`],
      ['no xp below the stop', 20, false, '0', false, 'no_xp'],
      ['conditions below the stop', 10, false, '0', false, 'conditions'],
    ]);
    // A real event's effects are the rules that applied and those capped to 0.
    const predicted = simulation.rules
      .filter((outcome) => outcome.applied || outcome.reason === 'capped')
      .map((outcome) => ({ rule_id: outcome.rule_id, rule_name: outcome.rule_name, amount: outcome.amount, capped: outcome.capped }));

    const dry = expectOk(await dryRun(key, { user_id: customer.id, properties: { total: 50 } }), 200, eventDryRunSchema);
    expect(dry.xp_awarded).toBe(simulation.xp_awarded);
    expect(dry.effects).toEqual(predicted.map((effect) => ({ ...effect, internal_transaction_id: null })));
    expect(await written(key, customer.id)).toEqual(before);

    const event = await recordEvent(key, { user_id: customer.id, properties: { total: 50 } });
    expect(event.xp_awarded).toBe(simulation.xp_awarded);
    expect(event.effects.map(({ internal_transaction_id, ...effect }) => ({ ...effect, written: internal_transaction_id !== null }))).toEqual(
      predicted.map((effect) => ({ ...effect, written: effect.amount !== '0' })),
    );
    expect(await written(key, customer.id)).toEqual({ xp: '227', events: 2, transactions: 6 });
  });

  it('dry runs and simulations write no event, XP, transaction or counter; a dry run is replayed like any write', async () => {
    const { tenant, key, customer } = await setup();
    const rule = await createRuleViaApi(tenant.owner, tenant.id, { name: 'once a day', limits: { per_customer: [{ period: 'day', max_times: 1 }] } });
    const first = await dryRun(key, { user_id: customer.id }, 'dry-1');
    expect(expectOk(first, 200, eventDryRunSchema).effects).toEqual([{ rule_id: rule.id, rule_name: 'once a day', amount: '10', capped: false, internal_transaction_id: null }]);
    const replay = await dryRun(key, { user_id: customer.id }, 'dry-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(expectOk(await dryRun(key, { user_id: customer.id }), 200, eventDryRunSchema).xp_awarded).toBe('10');
    const simulation = expectOk(await simulateCall(tenant.owner, tenant.id, { user_id: customer.id }), 200, simulationSchema);
    expect(simulation.rules.map((outcome) => [outcome.amount, outcome.reason])).toEqual([['10', null]]);

    expect(await written(key, customer.id)).toEqual({ xp: '0', events: 0, transactions: 0 });
    expect((await ruleViaApi(tenant.owner, tenant.id, rule.id)).counters).toEqual({ times_applied: 0, xp_awarded: '0' });
    // The day's limit is untouched: the first real event still gets it.
    expect((await recordEvent(key, { user_id: customer.id })).xp_awarded).toBe('10');
    expect((await ruleViaApi(tenant.owner, tenant.id, rule.id)).counters).toEqual({ times_applied: 1, xp_awarded: '10' });
  });

  it('a type with no rules gives no XP; a suspended customer is 409, an unknown one 404, an occurred_at out of range 422', async () => {
    const { tenant, key, customer } = await setup();
    const simulation = expectOk(await simulateCall(tenant.owner, tenant.id, { user_id: customer.id, type: 'nothing.here' }), 200, simulationSchema);
    expect(simulation).toMatchObject({ type: 'nothing.here', xp_awarded: '0', rules: [] });
    const late = expectError(await simulateCall(tenant.owner, tenant.id, { user_id: customer.id, occurred_at: new Date(Date.now() - 31 * 86_400_000).toISOString() }), 422, 'VALIDATION_FAILED');
    expect(late.errors.map((error) => error.path)).toEqual(['occurred_at']);
    expectError(await simulateCall(tenant.owner, tenant.id, { user_id: 'cus_missing' }), 404, 'NOT_FOUND');
    expect((await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/customers/${customer.id}`), { status: 'suspended' })).status).toBe(200);
    expectError(await simulateCall(tenant.owner, tenant.id, { user_id: customer.id }), 409, 'CUSTOMER_NOT_ACTIVE');
    expect((await written(key, customer.id)).events).toBe(0);
  });
});

describe('who may simulate', () => {
  it('editors and up; a viewer is 403', async () => {
    const { tenant, customer } = await setup();
    await createRuleViaApi(tenant.owner, tenant.id, {});
    for (const role of ['admin', 'editor'] as const) {
      const member = await addMember(tenant.id, role);
      expect(expectOk(await simulateCall(member, tenant.id, { user_id: customer.id }), 200, simulationSchema).xp_awarded, role).toBe('10');
    }
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await simulateCall(viewer, tenant.id, { user_id: customer.id }), 403, 'FORBIDDEN');
  });

  it("another tenant's customer, or a tenant the member is not in, is 404, on another shard and on the same one (event reads: reads.test.ts)", async () => {
    const mine = await setup('simulate-mine');
    for (const other of await otherTenants(mine.tenant.id, 'simulate-theirs')) {
      const theirs = await setup('simulate-theirs', other);
      await createRuleViaApi(theirs.tenant.owner, theirs.tenant.id, {});
      expectError(await simulateCall(mine.tenant.owner, mine.tenant.id, { user_id: theirs.customer.id }), 404, 'NOT_FOUND');
      expectError(await dryRun(mine.key, { user_id: theirs.customer.id }), 404, 'NOT_FOUND');
      expectError(await simulateCall(mine.tenant.owner, theirs.tenant.id, { user_id: theirs.customer.id }), 404, 'NOT_FOUND');
      // Their rule stands ready: the owner of their tenant gets it for the same body.
      expect(expectOk(await simulateCall(theirs.tenant.owner, theirs.tenant.id, { user_id: theirs.customer.id }), 200, simulationSchema).xp_awarded).toBe('10');
    }
  });
});
