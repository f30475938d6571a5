import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_ACTIVE_RULES_PER_TYPE, MAX_RULE_LIMITS, MAX_RULE_MULTIPLIERS, MAX_RULE_PREDICATES, MAX_RULES_PER_TENANT } from '../../src/domain/earning-limits';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { earningRuleSchema, type EarningRuleView } from '../../src/schemas/earning-rule';
import { expectError, expectOk } from '../support/http';
import { insertTier } from '../support/rewards';
import { portalRequest, race } from '../support/race';
import { createCohort, defineAttribute, rulesOf, tenantPath } from '../support/segments';
import { addMember, createTenant, otherTenants, portalCall, shardD1, type TestMember, type TestTenant } from '../support/world';

/** Earning rules CRUD (CONTRACT.md, Events and earning rules): what is stored, every save-time 422, the caps under races, roles and tenants. */

const fixed = { kind: 'fixed', amount: '10' };
const rulesPath = (tenantId: string, rest = '') => tenantPath(tenantId, `/earning-rules${rest}`);

/** `given`: a tenant to set up (from `otherTenants`: beside another on its shard, only tenant filters keep their rows apart). */
async function world(given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  await defineAttribute(tenant.owner, tenant.id, 'plan', 'string');
  const gold = await insertTier(tenant.id, 'Gold', 100);
  const cohort = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'status', op: 'eq', value: 'active' }));
  return { tenant, gold, cohortId: cohort.id };
}

async function createRule(member: TestMember, tenantId: string, body: Record<string, unknown> = {}): Promise<EarningRuleView> {
  const res = await portalCall(member, 'POST', rulesPath(tenantId), { name: 'Orders', event_type: 'order.paid', effect: fixed, ...body });
  return expectOk(res, 201, earningRuleSchema);
}

/** `count` rules of the tenant as rows in one statement (the caps count rows): `status` of `event_type`. */
async function fillRules(tenantId: string, count: number, status: 'active' | 'paused', eventType = 'order.paid') {
  await shardD1(tenantId).prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
     insert into earning_rules (id, tenant_id, name, event_type, status, conditions, effect, multipliers, limits)
     select 'rule_' || lower(hex(randomblob(16))), ?, 'Filler', ?, ?, '{"operator":"and","predicates":[]}', '{"kind":"fixed","amount":1}', '[]', '{"per_customer":[]}' from n`,
  )
    .bind(count, tenantId, eventType, status)
    .run();
}

const paths = (res: Awaited<ReturnType<typeof portalCall>>) => expectError(res, 422, 'VALIDATION_FAILED').errors.map((error) => error.path);

describe('POST /tenant/{t}/earning-rules', () => {
  it('stores every part in its canonical form: 201 with counters at zero', async () => {
    const { tenant, gold, cohortId } = await world();
    const rule = await createRule(tenant.owner, tenant.id, {
      name: '2 XP per dollar over $20',
      description: 'Double for Gold',
      status: 'paused',
      priority: 5,
      stackable: false,
      conditions: {
        operator: 'and',
        predicates: [
          { type: 'property', key: 'total', op: 'gte', value: '20' },
          { type: 'attribute', key: 'plan', op: 'eq', value: 'pro' },
          { type: 'cohort', op: 'eq', value: cohortId },
          { type: 'tier', op: 'eq', value: gold },
          { type: 'property', key: 'coupon', op: 'not_exists' },
        ],
      },
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' },
      multipliers: [{ tier_id: gold, factor: '2' }],
      limits: { per_customer: [{ period: 'week', max_xp: '500' }, { period: 'day', max_times: 3 }], total_xp_budget: '100000' },
      starts_at: '2026-01-01T01:00:00+01:00',
      ends_at: '2027-01-01T00:00:00Z',
    });
    expect(rule).toMatchObject({
      id: expect.stringMatching(/^rule_/),
      name: '2 XP per dollar over $20',
      description: 'Double for Gold',
      event_type: 'order.paid',
      status: 'paused',
      priority: 5,
      stackable: false,
      conditions: {
        operator: 'and',
        predicates: [
          { type: 'property', key: 'total', op: 'gte', value: '20' },
          { type: 'attribute', key: 'plan', op: 'eq', value: 'pro' },
          { type: 'cohort', key: '', op: 'eq', value: cohortId },
          { type: 'tier', key: '', op: 'eq', value: gold },
          { type: 'property', key: 'coupon', op: 'not_exists', value: '' },
        ],
      },
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2', unit: '1' },
      multipliers: [{ tier_id: gold, factor: '2' }],
      limits: { per_customer: [{ period: 'week', max_times: null, max_xp: '500' }, { period: 'day', max_times: 3, max_xp: null }], total_xp_budget: '100000' },
      starts_at: '2026-01-01T00:00:00.000Z',
      ends_at: '2027-01-01T00:00:00.000Z',
      counters: { times_applied: 0, xp_awarded: '0' },
    });
    expect(rule.created_at).toBe(rule.updated_at);
    expect(expectOk(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, `/${rule.id}`)), 200, earningRuleSchema)).toEqual(rule);
  });

  it('fills the defaults: active, priority 0, stackable, no conditions, multipliers, limits or window', async () => {
    const { tenant } = await world();
    const rule = await createRule(tenant.owner, tenant.id);
    expect(rule).toMatchObject({
      description: '',
      status: 'active',
      priority: 0,
      stackable: true,
      conditions: { operator: 'and', predicates: [] },
      effect: { kind: 'fixed', amount: '10' },
      multipliers: [],
      limits: { per_customer: [], total_xp_budget: null },
      starts_at: null,
      ends_at: null,
    });
  });

  const predicate = (p: Record<string, unknown>) => ({ conditions: { operator: 'and', predicates: [p] } });
  const many = <T>(n: number, item: (i: number) => T) => Array.from({ length: n }, (_, i) => item(i));

  type World = Awaited<ReturnType<typeof world>>;
  /** POSTs a rule with `body`: 422 naming `expected`, and no rule stored. */
  async function expectRefused(w: World, body: Record<string, unknown>, expected: string[]) {
    const res = await portalCall(w.tenant.owner, 'POST', rulesPath(w.tenant.id), { name: 'Bad', event_type: 'order.paid', effect: fixed, ...body });
    expect(paths(res)).toEqual(expected);
    const list = expectOk(await portalCall(w.tenant.owner, 'GET', rulesPath(w.tenant.id)), 200, pageSchema(earningRuleSchema));
    expect(list.total_count).toBe(0);
  }

  it.each<[string, (w: World) => Record<string, unknown>, string[]]>([
    ['an unknown property op', () => predicate({ type: 'property', key: 'total', op: 'between', value: '1' }), ['conditions.predicates.0.op']],
    ['a property predicate without a key', () => predicate({ type: 'property', op: 'eq', value: '1' }), ['conditions.predicates.0.key']],
    ['a property gt that is not a number', () => predicate({ type: 'property', key: 'total', op: 'gt', value: 'lots' }), ['conditions.predicates.0.value']],
    ['a property in that is not a list', () => predicate({ type: 'property', key: 'sku', op: 'in', value: 'a,b' }), ['conditions.predicates.0.value']],
    ['an undefined attribute', () => predicate({ type: 'attribute', key: 'ghost', op: 'exists' }), ['conditions.predicates.0.key']],
    ['two multipliers of one tier', (w) => ({ multipliers: [{ tier_id: w.gold, factor: '2' }, { tier_id: w.gold, factor: '3' }] }), ['multipliers.1.tier_id']],
    ['a factor over 100', (w) => ({ multipliers: [{ tier_id: w.gold, factor: '101' }] }), ['multipliers.0.factor']],
    ['ends_at before starts_at', () => ({ starts_at: '2026-02-01T00:00:00Z', ends_at: '2026-01-01T00:00:00Z' }), ['ends_at']],
    ['ends_at equal to starts_at (another offset)', () => ({ starts_at: '2026-02-01T01:00:00+01:00', ends_at: '2026-02-01T00:00:00Z' }), ['ends_at']],
    ['a per_unit effect without its property', () => ({ effect: { kind: 'per_unit', xp_per_unit: '2' } }), ['effect.property']],
    ['an XP amount sent as a number', () => ({ effect: { kind: 'fixed', amount: 10 } }), ['effect.amount']],
    ['two limits of one period', () => ({ limits: { per_customer: [{ period: 'day', max_times: 1 }, { period: 'day', max_xp: '5' }] } }), ['limits.per_customer.1.period']],
    ['a limit with neither max', () => ({ limits: { per_customer: [{ period: 'day' }] } }), ['limits.per_customer.0.max_times']],
    [`${MAX_RULE_PREDICATES + 1} predicates`, () => ({ conditions: { operator: 'or', predicates: many(MAX_RULE_PREDICATES + 1, () => ({ type: 'property', key: 'a', op: 'exists' })) } }), ['conditions.predicates']],
    [`${MAX_RULE_MULTIPLIERS + 1} multipliers`, (w) => ({ multipliers: many(MAX_RULE_MULTIPLIERS + 1, () => ({ tier_id: w.gold, factor: '2' })) }), ['multipliers']],
    [`${MAX_RULE_LIMITS + 1} limits`, () => ({ limits: { per_customer: many(MAX_RULE_LIMITS + 1, () => ({ period: 'day', max_times: 1 })) } }), ['limits.per_customer']],
    ['an event type with capitals', () => ({ event_type: 'Order.Paid' }), ['event_type']],
    ['an unknown field', () => ({ budget: '5' }), ['budget']],
  ])('answers 422 for %s, naming the field, and stores nothing', async (_name, body, expected) => {
    const w = await world();
    await expectRefused(w, body(w), expected);
  });

  it.each<[string, (other: World) => Record<string, unknown>, string[]]>([
    ['cohort', (other) => predicate({ type: 'cohort', op: 'eq', value: other.cohortId }), ['conditions.predicates.0.value']],
    ['tier in a predicate', (other) => predicate({ type: 'tier', op: 'eq', value: other.gold }), ['conditions.predicates.0.value']],
    ['tier in a multiplier', (other) => ({ multipliers: [{ tier_id: other.gold, factor: '2' }] }), ['multipliers.0.tier_id']],
  ])("answers 422 for another tenant's %s (on another shard and on the same one), naming the field, and stores nothing", async (_name, body, expected) => {
    const w = await world();
    for (const tenant of await otherTenants(w.tenant.id)) await expectRefused(w, body(await world(tenant)), expected);
  });

  it('accepts every size limit reached exactly', async () => {
    const { tenant } = await world();
    const tiers = await Promise.all(many(MAX_RULE_MULTIPLIERS, (i) => insertTier(tenant.id, `T${i}`, i)));
    const rule = await createRule(tenant.owner, tenant.id, {
      conditions: { operator: 'or', predicates: many(MAX_RULE_PREDICATES, (i) => ({ type: 'property', key: `k${i}`, op: 'exists' })) },
      multipliers: tiers.map((tier_id) => ({ tier_id, factor: '1.5' })),
      limits: { per_customer: (['day', 'week', 'month', 'year', 'lifetime'] as const).slice(0, MAX_RULE_LIMITS).map((period) => ({ period, max_times: 1 })) },
    });
    expect(rule.multipliers).toHaveLength(MAX_RULE_MULTIPLIERS);
  });
});

describe('caps on rules', () => {
  it(`answers 422 past ${MAX_RULES_PER_TENANT} rules per tenant, whatever their status, and gives the last place to one of two racing creations`, async () => {
    const { tenant } = await world();
    await fillRules(tenant.id, MAX_RULES_PER_TENANT - 1, 'paused');
    const request = () => portalRequest(tenant.owner, 'POST', rulesPath(tenant.id), { name: 'Racer', event_type: 'signup', effect: fixed, status: 'paused' });
    const { responses, held } = await race([request(), request()], /insert into "earning_rules"/i);
    expect(held).toBe(2);
    expect(responses.map((res) => res.status).sort()).toEqual([201, 422]);
    const refused = responses.find((res) => res.status === 422)!;
    expect(expectError(refused, 422, 'VALIDATION_FAILED', `at most ${MAX_RULES_PER_TENANT} earning rules`).errors).toEqual([
      { path: '', message: expect.stringContaining('delete one') },
    ]);
    const list = expectOk(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, '?limit=1')), 200, pageSchema(earningRuleSchema));
    expect(list.total_count).toBe(MAX_RULES_PER_TENANT);
  });

  it(`answers 422 at status past ${MAX_ACTIVE_RULES_PER_TYPE} active rules of one event type; paused ones and other types still fit`, async () => {
    const { tenant } = await world();
    await fillRules(tenant.id, MAX_ACTIVE_RULES_PER_TYPE, 'active');
    const refused = await portalCall(tenant.owner, 'POST', rulesPath(tenant.id), { name: 'One more', event_type: 'order.paid', effect: fixed });
    expect(expectError(refused, 422, 'VALIDATION_FAILED', `At most ${MAX_ACTIVE_RULES_PER_TYPE} rules of one event type (order.paid) are active`).errors[0]?.path).toBe('status');
    const paused = await createRule(tenant.owner, tenant.id, { status: 'paused' });
    await createRule(tenant.owner, tenant.id, { event_type: 'signup' });
    expect(paths(await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${paused.id}`), { status: 'active' }))).toEqual(['status']);
    const signup = expectOk(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, '?event_type=signup')), 200, pageSchema(earningRuleSchema)).items[0]!;
    expect(paths(await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${signup.id}`), { event_type: 'order.paid' }))).toEqual(['status']);
    // An active rule of the type that is only edited keeps its place.
    const filler = expectOk(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, '?event_type=order.paid&status=active&limit=1')), 200, pageSchema(earningRuleSchema)).items[0]!;
    expectOk(await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${filler.id}`), { name: 'Renamed', priority: 3 }), 200, earningRuleSchema);
  });

  it('gives the last active place of a type to one of two racing creations, and of two racing activations', async () => {
    const { tenant } = await world();
    await fillRules(tenant.id, MAX_ACTIVE_RULES_PER_TYPE - 1, 'active');
    const create = () => portalRequest(tenant.owner, 'POST', rulesPath(tenant.id), { name: 'Racer', event_type: 'order.paid', effect: fixed });
    const created = await race([create(), create()], /insert into "earning_rules"/i);
    expect(created.held).toBe(2);
    expect(created.responses.map((res) => res.status).sort()).toEqual([201, 422]);

    const { tenant: other } = await world();
    await fillRules(other.id, MAX_ACTIVE_RULES_PER_TYPE - 1, 'active');
    const [a, b] = [await createRule(other.owner, other.id, { status: 'paused' }), await createRule(other.owner, other.id, { status: 'archived' })];
    const activate = (id: string) => portalRequest(other.owner, 'PATCH', rulesPath(other.id, `/${id}`), { status: 'active' });
    const activated = await race([activate(a.id), activate(b.id)], /update "earning_rules"/i);
    expect(activated.held).toBe(2);
    expect(activated.responses.map((res) => res.status).sort()).toEqual([200, 422]);
    expect(expectError(activated.responses.find((res) => res.status === 422)!, 422, 'VALIDATION_FAILED').errors[0]?.path).toBe('status');
    const active = expectOk(await portalCall(other.owner, 'GET', rulesPath(other.id, '?status=active&limit=1')), 200, pageSchema(earningRuleSchema));
    expect(active.total_count).toBe(MAX_ACTIVE_RULES_PER_TYPE);
  });
});

describe('GET /tenant/{t}/earning-rules', () => {
  it('lists newest first with the status and event_type filters, and nothing of another tenant (on another shard and on the same one)', async () => {
    const { tenant } = await world();
    for (const other of await otherTenants(tenant.id)) await createRule(other.owner, other.id);
    const first = await createRule(tenant.owner, tenant.id, { name: 'First' });
    const second = await createRule(tenant.owner, tenant.id, { name: 'Second', status: 'paused' });
    const third = await createRule(tenant.owner, tenant.id, { name: 'Third', event_type: 'signup' });
    const list = async (query = '') => expectOk(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, query)), 200, pageSchema(earningRuleSchema));
    const all = await list();
    expect(all.items.map((rule) => rule.id)).toEqual([third.id, second.id, first.id]);
    expect(all.total_count).toBe(3);
    expect(all.items[1]).toEqual(second);
    const paged = await list('?limit=2&page=2');
    expect(paged).toMatchObject({ total_count: 3, total_pages: 2, has_next_page: false });
    expect(paged.items.map((rule) => rule.id)).toEqual([first.id]);
    expect((await list('?status=paused')).items.map((rule) => rule.id)).toEqual([second.id]);
    const orderPaidActive = await list('?event_type=order.paid&status=active');
    expect(orderPaidActive.items.map((rule) => rule.id)).toEqual([first.id]);
    expect(orderPaidActive.total_count).toBe(1);
  });

  it.each(['?status=deleted', '?event_type=Order', '?limit=101', '?page=0'])('answers 422 for %s', async (query) => {
    const { tenant } = await world();
    expectError(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, query)), 422, 'VALIDATION_FAILED');
  });
});

describe('PATCH /tenant/{t}/earning-rules/{id}', () => {
  it('replaces the fields sent, each part as a whole, and keeps the rest', async () => {
    const { tenant, gold } = await world();
    const rule = await createRule(tenant.owner, tenant.id, {
      conditions: { operator: 'and', predicates: [{ type: 'property', key: 'total', op: 'gt', value: '5' }] },
      limits: { per_customer: [{ period: 'day', max_times: 1 }], total_xp_budget: '50' },
      starts_at: '2026-01-01T00:00:00Z',
    });
    const res = await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), {
      name: 'Renamed',
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '0.5', unit: '10' },
      multipliers: [{ tier_id: gold, factor: '1.25' }],
      limits: { per_customer: [{ period: 'month', max_xp: '100' }] },
      ends_at: '2026-03-01T00:00:00-05:00',
    });
    const updated = expectOk(res, 200, earningRuleSchema);
    expect(updated).toEqual({
      ...rule,
      name: 'Renamed',
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '0.5', unit: '10' },
      multipliers: [{ tier_id: gold, factor: '1.25' }],
      limits: { per_customer: [{ period: 'month', max_times: null, max_xp: '100' }], total_xp_budget: null },
      ends_at: '2026-03-01T05:00:00.000Z',
      updated_at: updated.updated_at,
    });
    expect(expectOk(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, `/${rule.id}`)), 200, earningRuleSchema)).toEqual(updated);
  });

  it('answers 422 for a bound on the wrong side of the stored other one, at the bound sent', async () => {
    const { tenant } = await world();
    const rule = await createRule(tenant.owner, tenant.id, { starts_at: '2026-02-01T00:00:00Z', ends_at: '2026-03-01T00:00:00Z' });
    const patch = (body: unknown) => portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), body);
    const early = expectError(await patch({ ends_at: '2026-01-01T00:00:00Z' }), 422, 'VALIDATION_FAILED');
    expect(early.errors).toEqual([{ path: 'ends_at', message: 'Must be after starts_at' }]);
    expect(paths(await patch({ starts_at: '2026-04-01T00:00:00Z' }))).toEqual(['starts_at']);
    expect(paths(await patch({ starts_at: '2026-04-01T00:00:00Z', ends_at: '2026-03-15T00:00:00Z' }))).toEqual(['ends_at']);
    expectOk(await patch({ starts_at: '2026-04-01T00:00:00Z', ends_at: null }), 200, earningRuleSchema);
  });

  it('checks the parts sent, not the stored ones: a rule whose multiplier tier was deleted can still be renamed', async () => {
    const { tenant } = await world();
    const silver = await insertTier(tenant.id, 'Silver', 50);
    const rule = await createRule(tenant.owner, tenant.id, { multipliers: [{ tier_id: silver, factor: '2' }] });
    expectOk(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/tiers/${silver}`)), 200, successFlagSchema);
    expectOk(await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), { name: 'Still here' }), 200, earningRuleSchema);
    expect(paths(await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), { multipliers: [{ tier_id: silver, factor: '3' }] }))).toEqual(['multipliers.0.tier_id']);
  });

  it('refuses an empty window made by two racing changes of its bounds', async () => {
    const { tenant } = await world();
    const rule = await createRule(tenant.owner, tenant.id);
    const patch = (body: unknown) => portalRequest(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), body);
    const { responses, held } = await race([patch({ starts_at: '2026-06-01T00:00:00Z' }), patch({ ends_at: '2026-05-01T00:00:00Z' })], /update "earning_rules"/i);
    expect(held).toBe(2);
    expect(responses.map((res) => res.status).sort()).toEqual([200, 422]);
    const saved = expectOk(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, `/${rule.id}`)), 200, earningRuleSchema);
    expect(saved.starts_at === null || saved.ends_at === null).toBe(true);
  });

  it('answers 422 for an empty body and 404 for a missing rule', async () => {
    const { tenant } = await world();
    const rule = await createRule(tenant.owner, tenant.id);
    expectError(await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), {}), 422, 'VALIDATION_FAILED');
    expectError(await portalCall(tenant.owner, 'PATCH', rulesPath(tenant.id, '/rule_missing'), { name: 'x' }), 404, 'NOT_FOUND', 'Earning rule not found');
  });
});

describe('DELETE /tenant/{t}/earning-rules/{id}', () => {
  it('deletes the rule and its per-customer counters: then 404 on every route', async () => {
    const { tenant } = await world();
    const rule = await createRule(tenant.owner, tenant.id);
    const counters = shardD1(tenant.id).prepare('select count(*) as n from rule_period_counters where rule_id = ?').bind(rule.id);
    await shardD1(tenant.id).prepare("insert into rule_period_counters (tenant_id, rule_id, user_id, period_key, times, xp) values (?, ?, 'cus_x', 'lifetime', 1, 10)").bind(tenant.id, rule.id).run();
    expect(await counters.first('n')).toBe(1);
    expectOk(await portalCall(tenant.owner, 'DELETE', rulesPath(tenant.id, `/${rule.id}`)), 200, successFlagSchema);
    expect(await counters.first('n')).toBe(0);
    expectError(await portalCall(tenant.owner, 'GET', rulesPath(tenant.id, `/${rule.id}`)), 404, 'NOT_FOUND', 'Earning rule not found');
    expectError(await portalCall(tenant.owner, 'DELETE', rulesPath(tenant.id, `/${rule.id}`)), 404, 'NOT_FOUND');
  });
});

describe('/earning-rules/simulate is not a rule', () => {
  it.each(['GET', 'PATCH', 'DELETE'])('%s answers 405 with Allow: POST, not the rule routes', async (method) => {
    const { tenant } = await world();
    const res = await portalCall(tenant.owner, method, rulesPath(tenant.id, '/simulate'), method === 'PATCH' ? { name: 'x' } : undefined);
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('tenants and roles', () => {
  it("answers 404 for another tenant's rule (on another shard and on the same one) on get, patch and delete, and leaves it unchanged", async () => {
    const { tenant } = await world();
    const mine = (rest: string) => rulesPath(tenant.id, rest);
    for (const otherTenant of await otherTenants(tenant.id)) {
      const { tenant: other } = await world(otherTenant);
      const theirs = await createRule(other.owner, other.id);
      expectError(await portalCall(tenant.owner, 'GET', mine(`/${theirs.id}`)), 404, 'NOT_FOUND', 'Earning rule not found');
      expectError(await portalCall(tenant.owner, 'PATCH', mine(`/${theirs.id}`), { name: 'Hijacked', status: 'archived' }), 404, 'NOT_FOUND', 'Earning rule not found');
      expectError(await portalCall(tenant.owner, 'DELETE', mine(`/${theirs.id}`)), 404, 'NOT_FOUND', 'Earning rule not found');
      expect(expectOk(await portalCall(other.owner, 'GET', rulesPath(other.id, `/${theirs.id}`)), 200, earningRuleSchema)).toEqual(theirs);
    }
  });

  it('lets a viewer read, an editor write, and refuses a viewer every write with 403', async () => {
    const { tenant } = await world();
    const [viewer, editor] = await Promise.all([addMember(tenant.id, 'viewer'), addMember(tenant.id, 'editor')]);
    const rule = await createRule(editor, tenant.id);
    expectOk(await portalCall(editor, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), { status: 'paused' }), 200, earningRuleSchema);
    expect(expectOk(await portalCall(viewer, 'GET', rulesPath(tenant.id)), 200, pageSchema(earningRuleSchema)).items.map((r) => r.id)).toEqual([rule.id]);
    expectOk(await portalCall(viewer, 'GET', rulesPath(tenant.id, `/${rule.id}`)), 200, earningRuleSchema);
    const forbidden = 'Your role (viewer) may not edit program in this tenant';
    expectError(await portalCall(viewer, 'POST', rulesPath(tenant.id), { name: 'x', event_type: 'a', effect: fixed }), 403, 'FORBIDDEN', forbidden);
    expectError(await portalCall(viewer, 'PATCH', rulesPath(tenant.id, `/${rule.id}`), { name: 'x' }), 403, 'FORBIDDEN', forbidden);
    expectError(await portalCall(viewer, 'DELETE', rulesPath(tenant.id, `/${rule.id}`)), 403, 'FORBIDDEN', forbidden);
    expectOk(await portalCall(editor, 'DELETE', rulesPath(tenant.id, `/${rule.id}`)), 200, successFlagSchema);
  });
});
