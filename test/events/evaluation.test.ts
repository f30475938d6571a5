import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { pageSchema } from '../../src/lib/paging';
import { attributeValueEntrySchema } from '../../src/schemas/attribute';
import { customerSchema } from '../../src/schemas/customer';
import { eventDryRunSchema, eventSchema } from '../../src/schemas/event';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { createCustomerViaApi, createTierViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { insertReward, redeem } from '../support/rewards';
import { amounts, createRuleViaApi, EVENTS_PATH, givingRules, recordEvent, ruleViaApi } from '../support/rules';
import { createCohort, defineAttribute, rulesOf, tenantPath } from '../support/segments';
import { createEndpoint, deliverPending, newInbox, received, verifiedEvent } from '../support/webhooks';
import { createTenant, createTestApiKey, gatewayCall, otherTenants, portalCall, type TestApiKey, type TestTenant } from '../support/world';

/**
 * What `POST /gateway/events` does with the tenant's rules (CONTRACT.md, Events and earning rules;
 * docs/RULES.md): every predicate type, the effects and their exact amounts, tier multipliers,
 * stacking and priority, windows and statuses, a rule's change seen by the very next event, the
 * request's checks, idempotent replays and the webhook of each effect.
 */

type Predicate = { type: string; key?: string; op: string; value?: string };

/** `given`: a tenant to key (one of `otherTenants`), else a new one. */
async function setup(label = 'eval', given?: TestTenant) {
  const tenant = given ?? (await createTenant(label));
  const key = await createTestApiKey(tenant.id);
  return { tenant, key };
}

async function earn(key: TestApiKey, userId: string, amount: number) {
  const res = await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: userId, type: 'xp_earn', amount: String(amount) } });
  expect(res.status, res.text).toBe(201);
}

async function balanceOf(key: TestApiKey, userId: string) {
  const customer = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/customers/${userId}`), 200, customerSchema);
  return { xp_balance: customer.xp_balance, lifetime_xp: customer.lifetime_xp };
}

/** One stackable 1 XP rule per predicate, all on `order.paid`, named after the case. */
async function rulePerCase(tenant: TestTenant, cases: readonly (readonly [string, Predicate, ...unknown[]])[]) {
  for (const [name, predicate] of cases) {
    await createRuleViaApi(tenant.owner, tenant.id, { name, effect: { kind: 'fixed', amount: '1' }, conditions: { operator: 'and', predicates: [predicate] } });
  }
}

describe('predicates', () => {
  it('property: each op on string, number, boolean and list properties, a missing one, and ops that do not fit the type', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    const cases: [string, Predicate, boolean][] = [
      ['string eq', { type: 'property', key: 'level', op: 'eq', value: 'gold' }, true],
      ['string eq other', { type: 'property', key: 'level', op: 'eq', value: 'silver' }, false],
      ['string neq other', { type: 'property', key: 'level', op: 'neq', value: 'silver' }, true],
      ['string neq same', { type: 'property', key: 'level', op: 'neq', value: 'gold' }, false],
      ['number eq', { type: 'property', key: 'total', op: 'eq', value: '45' }, true],
      ['number eq written 45.0', { type: 'property', key: 'total', op: 'eq', value: '45.0' }, true],
      ['number eq other', { type: 'property', key: 'total', op: 'eq', value: '46' }, false],
      ['number neq other', { type: 'property', key: 'total', op: 'neq', value: '46' }, true],
      ['number neq same', { type: 'property', key: 'total', op: 'neq', value: '45' }, false],
      ['boolean eq true', { type: 'property', key: 'first', op: 'eq', value: 'true' }, true],
      ['boolean eq false', { type: 'property', key: 'first', op: 'eq', value: 'false' }, false],
      ['boolean neq false', { type: 'property', key: 'first', op: 'neq', value: 'false' }, true],
      ['boolean neq true', { type: 'property', key: 'first', op: 'neq', value: 'true' }, false],
      ['gt below', { type: 'property', key: 'total', op: 'gt', value: '44.5' }, true],
      ['gt equal', { type: 'property', key: 'total', op: 'gt', value: '45' }, false],
      ['gte equal', { type: 'property', key: 'total', op: 'gte', value: '45' }, true],
      ['gte above', { type: 'property', key: 'total', op: 'gte', value: '45.01' }, false],
      ['lt above', { type: 'property', key: 'total', op: 'lt', value: '46' }, true],
      ['lt equal', { type: 'property', key: 'total', op: 'lt', value: '45' }, false],
      ['lte equal', { type: 'property', key: 'total', op: 'lte', value: '45' }, true],
      ['lte below', { type: 'property', key: 'total', op: 'lte', value: '44' }, false],
      ['gt on a string of digits', { type: 'property', key: 'code', op: 'gt', value: '10' }, false],
      ['contains in a string', { type: 'property', key: 'level', op: 'contains', value: 'ol' }, true],
      ['contains not in a string', { type: 'property', key: 'level', op: 'contains', value: 'x' }, false],
      ['contains a list item', { type: 'property', key: 'tags', op: 'contains', value: 'vip' }, true],
      ['contains part of a list item', { type: 'property', key: 'tags', op: 'contains', value: 'vi' }, false],
      ['in strings', { type: 'property', key: 'level', op: 'in', value: '["silver","gold"]' }, true],
      ['in other strings', { type: 'property', key: 'level', op: 'in', value: '["silver"]' }, false],
      ['in numbers', { type: 'property', key: 'total', op: 'in', value: '[10, 45]' }, true],
      ['in the number as a string', { type: 'property', key: 'total', op: 'in', value: '["45"]' }, false],
      ['exists', { type: 'property', key: 'tags', op: 'exists' }, true],
      ['exists missing', { type: 'property', key: 'coupon', op: 'exists' }, false],
      ['not_exists missing', { type: 'property', key: 'coupon', op: 'not_exists' }, true],
      ['not_exists present', { type: 'property', key: 'level', op: 'not_exists' }, false],
      ['eq on a list', { type: 'property', key: 'tags', op: 'eq', value: 'vip' }, false],
      ['neq missing', { type: 'property', key: 'coupon', op: 'neq', value: 'x' }, false],
    ];
    await rulePerCase(tenant, cases);
    const event = await recordEvent(key, { user_id: customer.id, properties: { level: 'gold', total: 45, first: true, code: '50', tags: ['vip', 'new'] } });
    expect(givingRules(event)).toEqual(cases.filter(([, , holds]) => holds).map(([name]) => name));
  });

  it('customer: attributes of every type, tier, status, country, xp_balance, lifetime_xp and cohort membership', async () => {
    const { tenant, key } = await setup();
    const bronze = await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
    const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 100);
    for (const [attribute, type] of [['plan', 'string'], ['age', 'number'], ['vip', 'boolean'], ['birthday', 'date'], ['labels', 'string_list']] as const) {
      await defineAttribute(tenant.owner, tenant.id, attribute, type);
    }
    const setAttributes = async (userId: string, values: Record<string, unknown>) => {
      expectOk(await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${userId}/attributes`, { body: { values } }), 200, z.array(attributeValueEntrySchema));
    };
    // a: Gold (150 lifetime XP) with 50 left after a redemption, in DE; b: Bronze, no country, reinstated.
    const a = await createCustomerViaApi(key, { country_code: 'DE' });
    const b = await createCustomerViaApi(key);
    await setAttributes(a.id, { plan: 'pro', age: 30, vip: true, birthday: '1990-05-01', labels: ['beta', 'early'] });
    await setAttributes(b.id, { plan: 'free', vip: false });
    await earn(key, a.id, 150);
    const reward = await insertReward(tenant.id, { xpCost: 100 });
    expect((await redeem(key, a.id, reward.id)).status).toBe(201);
    expect(await balanceOf(key, a.id)).toEqual({ xp_balance: '50', lifetime_xp: '150' });
    for (const status of ['suspended', 'reinstated']) {
      expect((await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/customers/${b.id}`), { status })).status).toBe(200);
    }
    const pro = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'attribute', key: 'plan', op: 'eq', value: 'pro' }), 'Pro');
    expect(pro.member_count).toBe(1);

    const cases: [string, Predicate, ('a' | 'b')[]][] = [
      ['string attribute eq', { type: 'attribute', key: 'plan', op: 'eq', value: 'pro' }, ['a']],
      ['string attribute in', { type: 'attribute', key: 'plan', op: 'in', value: '["free","trial"]' }, ['b']],
      ['string attribute contains', { type: 'attribute', key: 'plan', op: 'contains', value: 'ro' }, ['a']],
      ['number attribute gte', { type: 'attribute', key: 'age', op: 'gte', value: '18' }, ['a']],
      ['number attribute not_exists', { type: 'attribute', key: 'age', op: 'not_exists' }, ['b']],
      ['boolean attribute eq true', { type: 'attribute', key: 'vip', op: 'eq', value: 'true' }, ['a']],
      ['boolean attribute eq false', { type: 'attribute', key: 'vip', op: 'eq', value: 'false' }, ['b']],
      ['date attribute lt', { type: 'attribute', key: 'birthday', op: 'lt', value: '2000-01-01' }, ['a']],
      ['list attribute contains', { type: 'attribute', key: 'labels', op: 'contains', value: 'beta' }, ['a']],
      ['list attribute exists', { type: 'attribute', key: 'labels', op: 'exists' }, ['a']],
      ['tier eq Gold', { type: 'tier', op: 'eq', value: gold.id }, ['a']],
      ['tier eq Bronze', { type: 'tier', op: 'eq', value: bronze.id }, ['b']],
      ['tier neq Gold', { type: 'tier', op: 'neq', value: gold.id }, ['b']],
      ['status eq active', { type: 'status', op: 'eq', value: 'active' }, ['a']],
      ['status eq reinstated', { type: 'status', op: 'eq', value: 'reinstated' }, ['b']],
      ['status in', { type: 'status', op: 'in', value: '["active","reinstated"]' }, ['a', 'b']],
      ['country eq', { type: 'country', op: 'eq', value: 'DE' }, ['a']],
      ['country not_exists', { type: 'country', op: 'not_exists' }, ['b']],
      ['xp_balance gte 50', { type: 'xp_balance', op: 'gte', value: '50' }, ['a']],
      ['xp_balance gte 100 (lifetime is 150)', { type: 'xp_balance', op: 'gte', value: '100' }, []],
      ['lifetime_xp gte 150', { type: 'lifetime_xp', op: 'gte', value: '150' }, ['a']],
      ['lifetime_xp lt 1', { type: 'lifetime_xp', op: 'lt', value: '1' }, ['b']],
      ['cohort member', { type: 'cohort', op: 'eq', value: pro.id }, ['a']],
      ['cohort non-member', { type: 'cohort', op: 'neq', value: pro.id }, ['b']],
    ];
    await rulePerCase(tenant, cases);
    for (const [who, customer] of [['a', a], ['b', b]] as const) {
      const event = await recordEvent(key, { user_id: customer.id });
      expect(givingRules(event), who).toEqual(cases.filter(([, , matches]) => matches.includes(who)).map(([name]) => name));
    }
  });

  it('and needs every predicate, or any one; no predicates hold for every event, with either operator', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key, { country_code: 'DE' });
    const bigOrder = { type: 'property', key: 'total', op: 'gt', value: '100' };
    const smallOrder = { type: 'property', key: 'total', op: 'gt', value: '10' };
    const inGermany = { type: 'country', op: 'eq', value: 'DE' };
    const inFrance = { type: 'country', op: 'eq', value: 'FR' };
    const cases: [string, 'and' | 'or', Predicate[], boolean][] = [
      ['and: both hold', 'and', [smallOrder, inGermany], true],
      ['and: the customer predicate fails', 'and', [smallOrder, inFrance], false],
      ['and: the property predicate fails', 'and', [bigOrder, inGermany], false],
      ['or: the customer predicate holds', 'or', [bigOrder, inGermany], true],
      ['or: the property predicate holds', 'or', [smallOrder, inFrance], true],
      ['or: none holds', 'or', [bigOrder, inFrance], false],
      ['and: no predicates', 'and', [], true],
      ['or: no predicates', 'or', [], true],
    ];
    for (const [name, operator, predicates] of cases) {
      await createRuleViaApi(tenant.owner, tenant.id, { name, effect: { kind: 'fixed', amount: '1' }, conditions: { operator, predicates } });
    }
    const event = await recordEvent(key, { user_id: customer.id, properties: { total: 50 } });
    expect(givingRules(event)).toEqual(cases.filter(([, , , holds]) => holds).map(([name]) => name));
  });
});

describe('effects', () => {
  it('fixed and per-unit amounts are exact decimals, floored; a rule giving 0 XP has no effect; each effect is an xp_earn with {event_id, rule_id}', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    const perUnit = (property: string, xp_per_unit: string, unit?: string) => ({ kind: 'per_unit', property, xp_per_unit, ...(unit ? { unit } : {}) });
    const rules = [
      ['fixed 7', { kind: 'fixed', amount: '7' }],
      ['2 per dollar on 45.99', perUnit('total', '2')],
      ['1 per half unit on 3', perUnit('quantity', '1', '0.5')],
      ['100 per unit on 0.29 (28.999... in floats)', perUnit('share', '100')],
      ['0.1 per unit on 3', perUnit('quantity', '0.1')],
      ['a missing property', perUnit('coupon_value', '5')],
      ['a string property', perUnit('label', '5')],
      ['a negative property', perUnit('refund', '5')],
    ] as const;
    const ids = new Map<string, string>();
    for (const [name, effect] of rules) ids.set(name, (await createRuleViaApi(tenant.owner, tenant.id, { name, effect })).id);
    const event = await recordEvent(key, { user_id: customer.id, properties: { total: 45.99, quantity: 3, share: 0.29, label: '12', refund: -5 } });
    expect(event.effects.map((effect) => [effect.rule_name, effect.amount, effect.capped])).toEqual([
      ['fixed 7', '7', false],
      ['2 per dollar on 45.99', '91', false],
      ['1 per half unit on 3', '6', false],
      ['100 per unit on 0.29 (28.999... in floats)', '29', false],
      ['0.1 per unit on 3', '0', false],
    ].filter(([, amount]) => amount !== '0'));
    expect(event.xp_awarded).toBe('133');
    for (const effect of event.effects) {
      expect(effect.rule_id).toBe(ids.get(effect.rule_name));
      const res = await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions/${effect.internal_transaction_id}`);
      const transaction = expectOk(res, 200, internalTransactionSchema);
      expect(transaction).toMatchObject({ type: 'xp_earn', status: 'completed', user_id: customer.id, amount: effect.amount, metadata: { event_id: event.id, rule_id: effect.rule_id } });
    }
    expect(await balanceOf(key, customer.id)).toEqual({ xp_balance: '133', lifetime_xp: '133' });
  });

  it("the customer's tier multiplies the effect, floored after the per-unit floor; a tier without a multiplier gives x1", async () => {
    const { tenant, key } = await setup();
    await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
    const silver = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 200);
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'ten', multipliers: [{ tier_id: gold.id, factor: '1.5' }, { tier_id: silver.id, factor: '2' }] });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'seven', effect: { kind: 'fixed', amount: '7' }, multipliers: [{ tier_id: gold.id, factor: '1.5' }] });
    await createRuleViaApi(tenant.owner, tenant.id, {
      name: 'per dollar',
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' },
      multipliers: [{ tier_id: gold.id, factor: '1.25' }],
    });
    const expected = { Gold: ['15', '10', '113'], Silver: ['20', '7', '91'], Bronze: ['10', '7', '91'] };
    for (const [tierName, lifetimeXp] of [['Gold', 250], ['Silver', 150], ['Bronze', 0]] as const) {
      const customer = await createCustomerViaApi(key);
      if (lifetimeXp > 0) await earn(key, customer.id, lifetimeXp);
      const event = await recordEvent(key, { user_id: customer.id, properties: { total: 45.99 } });
      expect(amounts(event), tierName).toEqual(expected[tierName]);
    }
  });
});

describe('stacking and priority', () => {
  it('a non-stackable rule that gives XP stops the rules below it; one whose conditions fail or that is capped to 0 does not', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'below', priority: 10, effect: { kind: 'fixed', amount: '1' } });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'exclusive', priority: 20, stackable: false, limits: { per_customer: [{ period: 'lifetime', max_times: 1 }] } });
    await createRuleViaApi(tenant.owner, tenant.id, {
      name: 'vip only',
      priority: 25,
      stackable: false,
      effect: { kind: 'fixed', amount: '100' },
      conditions: { operator: 'and', predicates: [{ type: 'property', key: 'vip', op: 'eq', value: 'true' }] },
    });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'top', priority: 30, effect: { kind: 'fixed', amount: '5' } });
    const shape = (event: z.infer<typeof eventSchema>) => event.effects.map((effect) => [effect.rule_name, effect.amount, effect.capped, effect.internal_transaction_id !== null]);

    expect(shape(await recordEvent(key, { user_id: customer.id }))).toEqual([
      ['top', '5', false, true],
      ['exclusive', '10', false, true],
    ]);
    expect(shape(await recordEvent(key, { user_id: customer.id }))).toEqual([
      ['top', '5', false, true],
      ['exclusive', '0', true, false],
      ['below', '1', false, true],
    ]);
    expect(shape(await recordEvent(key, { user_id: customer.id, properties: { vip: true } }))).toEqual([
      ['top', '5', false, true],
      ['vip only', '100', false, true],
    ]);
    expect(await balanceOf(key, customer.id)).toEqual({ xp_balance: '126', lifetime_xp: '126' });
  });

  it('rules of equal priority run in the order they were created', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    const names = ['first', 'second', 'third', 'fourth', 'fifth', 'stopper', 'after the stopper'];
    const created = [];
    for (const name of names) created.push(await createRuleViaApi(tenant.owner, tenant.id, { name, stackable: name !== 'stopper' }));
    // Creation times differ, so the order is the creation's, not the ids' (their tie-break).
    expect(created.map((rule) => rule.created_at)).toEqual([...new Set(created.map((rule) => rule.created_at))].sort());
    const event = await recordEvent(key, { user_id: customer.id });
    expect(givingRules(event)).toEqual(names.slice(0, 6));
  });
});

describe('windows and statuses', () => {
  it('a rule applies to events whose occurred_at is in [starts_at, ends_at); paused and archived rules never apply', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    const now = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'from -3h to -1h', starts_at: at(-180), ends_at: at(-60) });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'from -2h', starts_at: at(-120) });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'until -2h', ends_at: at(-120) });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'from +1h', starts_at: at(60) });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'paused', status: 'paused' });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'archived', status: 'archived' });
    const applied = async (minutes: number) => givingRules(await recordEvent(key, { user_id: customer.id, occurred_at: at(minutes) }));
    expect(await applied(0)).toEqual(['from -2h']);
    expect(await applied(-60)).toEqual(['from -2h']);
    expect(await applied(-61)).toEqual(['from -3h to -1h', 'from -2h']);
    expect(await applied(-120)).toEqual(['from -3h to -1h', 'from -2h']);
    expect(await applied(-121)).toEqual(['from -3h to -1h', 'until -2h']);
    expect(await applied(-181)).toEqual(['until -2h']);
  });
});

describe('rule changes', () => {
  it('a change applies to the very next event; earlier events keep their effects, even once the rule is deleted', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    const rule = await createRuleViaApi(tenant.owner, tenant.id, { name: 'Ten' });
    const rulePath = tenantPath(tenant.id, `/earning-rules/${rule.id}`);
    const first = await recordEvent(key, { user_id: customer.id });
    expect(amounts(first)).toEqual(['10']);

    expect((await portalCall(tenant.owner, 'PATCH', rulePath, { name: 'Twenty-five', effect: { kind: 'fixed', amount: '25' } })).status).toBe(200);
    // Its rules were cached by the first event: the next one must see the change, and its answer is stored for a replay.
    const idempotencyKey = 'after-the-change';
    const changed = await gatewayCall(key, 'POST', EVENTS_PATH, { body: { type: 'order.paid', user_id: customer.id }, idempotencyKey });
    const second = expectOk(changed, 201, eventSchema);
    expect(second.effects.map((effect) => [effect.rule_name, effect.amount])).toEqual([['Twenty-five', '25']]);
    const replay = await gatewayCall(key, 'POST', EVENTS_PATH, { body: { type: 'order.paid', user_id: customer.id }, idempotencyKey });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(changed.text);

    expect((await portalCall(tenant.owner, 'PATCH', rulePath, { status: 'paused' })).status).toBe(200);
    // A dry run, which only reads, must see it too (the rules cached by the event before are stale).
    const dry = await gatewayCall(key, 'POST', `${EVENTS_PATH}?dry_run=true`, { body: { type: 'order.paid', user_id: customer.id } });
    expect(expectOk(dry, 200, eventDryRunSchema).effects).toEqual([]);
    expect((await recordEvent(key, { user_id: customer.id })).effects).toEqual([]);
    expect((await portalCall(tenant.owner, 'DELETE', rulePath)).status).toBe(200);
    expect((await recordEvent(key, { user_id: customer.id })).effects).toEqual([]);

    const firstNow = expectOk(await gatewayCall(key, 'GET', `${EVENTS_PATH}/${first.id}`), 200, eventSchema);
    expect(firstNow).toEqual(first);
    const secondNow = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/events/${second.id}`)), 200, eventSchema);
    expect(secondNow).toEqual(second);
    expect(await balanceOf(key, customer.id)).toEqual({ xp_balance: '35', lifetime_xp: '35' });
  });
});

describe('the request', () => {
  it('occurred_at more than 30 days back or 5 minutes ahead, a bad type, too many or nested properties: 422 naming the field', async () => {
    const { key } = await setup();
    const customer = await createCustomerViaApi(key);
    const post = (body: Record<string, unknown>) => gatewayCall(key, 'POST', EVENTS_PATH, { body: { type: 'order.paid', user_id: customer.id, ...body } });
    const fieldOf = async (body: Record<string, unknown>) => expectError(await post(body), 422, 'VALIDATION_FAILED').errors.map((error) => error.path);
    expect(await fieldOf({ occurred_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })).toEqual(['occurred_at']);
    expect(await fieldOf({ occurred_at: new Date(Date.now() + 10 * 60_000).toISOString() })).toEqual(['occurred_at']);
    expect(await fieldOf({ type: 'Order.Paid' })).toEqual(['type']);
    expect(await fieldOf({ type: '1order' })).toEqual(['type']);
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, i]));
    expect(await fieldOf({ properties: many })).toEqual(['properties']);
    expect(await fieldOf({ properties: { order: { total: 5 } } })).toEqual(['properties.order']);
    expect(await fieldOf({ properties: { skus: ['a', 1] } })).toEqual(['properties.skus']);
    // 64 properties and the bounds of occurred_at are accepted.
    const sixtyFour = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`p${i}`, i]));
    expect((await post({ properties: sixtyFour, occurred_at: new Date(Date.now() - 29 * 86_400_000).toISOString() })).status).toBe(201);
    expect((await post({ occurred_at: new Date(Date.now() + 4 * 60_000).toISOString() })).status).toBe(201);
    const list = expectOk(await gatewayCall(key, 'GET', `${EVENTS_PATH}?user_id=${customer.id}`), 200, pageSchema(eventSchema));
    expect(list.total_count).toBe(2);
  });

  it("a suspended customer is 409 CUSTOMER_NOT_ACTIVE; an unknown customer or another tenant's (on another shard and on the same one) is 404; nothing is written", async () => {
    const { tenant, key } = await setup();
    const strangers: { other: { key: TestApiKey }; stranger: { id: string } }[] = [];
    for (const otherTenant of await otherTenants(tenant.id, 'eval-other')) {
      const other = await setup('eval-other', otherTenant);
      strangers.push({ other, stranger: await createCustomerViaApi(other.key) });
    }
    await createRuleViaApi(tenant.owner, tenant.id, {});
    const customer = await createCustomerViaApi(key);
    expect((await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/customers/${customer.id}`), { status: 'suspended' })).status).toBe(200);
    const post = (userId: string, query = '') => gatewayCall(key, 'POST', `${EVENTS_PATH}${query}`, { body: { type: 'order.paid', user_id: userId } });
    for (const query of ['', '?dry_run=true']) {
      const suspended = expectError(await post(customer.id, query), 409, 'CUSTOMER_NOT_ACTIVE');
      expect(suspended.errors.map((error) => error.path)).toEqual(['user_id']);
      for (const { stranger } of strangers) expectError(await post(stranger.id, query), 404, 'NOT_FOUND');
      expectError(await post('cus_missing', query), 404, 'NOT_FOUND');
    }
    const list = expectOk(await gatewayCall(key, 'GET', EVENTS_PATH), 200, pageSchema(eventSchema));
    expect(list.total_count).toBe(0);
    for (const { other, stranger } of strangers) expect(await balanceOf(other.key, stranger.id)).toEqual({ xp_balance: '0', lifetime_xp: '0' });
  });

  it('an idempotent replay answers the same bytes and writes nothing twice; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    const rule = await createRuleViaApi(tenant.owner, tenant.id, { effect: { kind: 'per_unit', property: 'total', xp_per_unit: '1' } });
    const body = { type: 'order.paid', user_id: customer.id, properties: { total: 12 }, reference: 'order-1' };
    const first = await gatewayCall(key, 'POST', EVENTS_PATH, { body, idempotencyKey: 'order-1' });
    expect(amounts(expectOk(first, 201, eventSchema))).toEqual(['12']);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await gatewayCall(key, 'POST', EVENTS_PATH, { body, idempotencyKey: 'order-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    const reused = await gatewayCall(key, 'POST', EVENTS_PATH, { body: { ...body, properties: { total: 13 } }, idempotencyKey: 'order-1' });
    expectError(reused, 422, 'IDEMPOTENCY_KEY_REUSED');

    expect(await balanceOf(key, customer.id)).toEqual({ xp_balance: '12', lifetime_xp: '12' });
    const list = expectOk(await gatewayCall(key, 'GET', `${EVENTS_PATH}?user_id=${customer.id}`), 200, pageSchema(eventSchema));
    expect(list.total_count).toBe(1);
    expect((await ruleViaApi(tenant.owner, tenant.id, rule.id)).counters).toEqual({ times_applied: 1, xp_awarded: '12' });
  });
});

describe('webhooks', () => {
  it('xp.transaction.completed fires once per effect that gives XP', async () => {
    const { tenant, key } = await setup();
    const customer = await createCustomerViaApi(key);
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'Ten' });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'Three', effect: { kind: 'fixed', amount: '3' } });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'Nothing', effect: { kind: 'per_unit', property: 'missing', xp_per_unit: '1' } });
    const inbox = newInbox();
    const endpoint = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['xp.transaction.completed']);
    const event = await recordEvent(key, { user_id: customer.id });
    await deliverPending(tenant.id);
    const bodies = (await received(inbox.name)).map((request) => verifiedEvent(request, endpoint.secret));
    const transactions = bodies.map((body) => {
      expect(body.type).toBe('xp.transaction.completed');
      return body.data.data as { id: string; amount: string; metadata: unknown };
    });
    expect(transactions.map((transaction) => transaction.id).sort()).toEqual(event.effects.map((effect) => effect.internal_transaction_id).sort());
    for (const effect of event.effects) {
      expect(transactions.find((transaction) => transaction.id === effect.internal_transaction_id)).toMatchObject({ amount: effect.amount, metadata: { event_id: event.id, rule_id: effect.rule_id } });
    }
    expect(event.effects).toHaveLength(2);
  });
});
