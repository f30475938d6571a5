import { beforeAll, describe, expect, it } from 'vitest';
import { cohorts } from '../../src/db/schema';
import { successFlagSchema } from '../../src/lib/envelope';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { cohortSchema } from '../../src/schemas/cohort';
import { customerSchema } from '../../src/schemas/customer';
import { expectOk } from '../support/http';
import { createCustomerViaApi, createTierViaApi } from '../support/customers';
import { createCohort, defineAttribute, memberIds, setValues, tenantPath, type PredicateInput } from '../support/segments';
import { createTenant, createTestApiKey, db, gatewayCall, portalCall, type TestApiKey, type TestTenant } from '../support/world';
import { matches, type AttributeValue, type MemoryCustomer, type MemoryRules, type MemoryWorld } from './evaluate';

/**
 * Member counts and members stay exact after every kind of write that can move a customer in or
 * out of a cohort, each made through the API: an earn, an attribute value, a status, a country,
 * the tier ladder (create, threshold change, delete), and a definition deleted and re-defined.
 * After each write, every cohort is compared with the reference evaluation (evaluate.ts).
 */

let tenant: TestTenant;
let key: TestApiKey;
const world: MemoryWorld = { definitions: {}, tiers: [] };
const people: MemoryCustomer[] = [];
const saved: { id: string; rules: MemoryRules }[] = [];
const tierIds: Record<string, string> = {};
const definitionIds: Record<string, string> = {};

const person = (index: number): MemoryCustomer => {
  const found = people[index];
  if (!found) throw new Error(`no customer ${index}`);
  return found;
};

async function earn(index: number, amount: number) {
  const customer = person(index);
  const res = await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: String(amount) } });
  expect(res.status, res.text).toBe(201);
  customer.xpBalance += amount;
  customer.lifetimeXp += amount;
}

async function setAttributes(index: number, values: Record<string, AttributeValue>) {
  await setValues(tenant.owner, tenant.id, person(index).id, values);
  Object.assign(person(index).attributes, values);
}

async function expectAllExact() {
  const listed = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, '/cohorts?limit=100')), 200, pageSchema(cohortSchema));
  for (const { id, rules } of saved) {
    const expected = people.filter((customer) => matches(rules, customer, world)).map((customer) => customer.id).sort();
    // memberIds also checks the cohort's own member_count and every page's total.
    expect(await memberIds(tenant.owner, tenant.id, id), JSON.stringify(rules)).toEqual(expected);
    expect(listed.items.find((cohort) => cohort.id === id)?.member_count).toBe(expected.length);
  }
}

const attr = (key: string, op: string, value?: string): PredicateInput => ({ type: 'attribute', key, op, value });

beforeAll(async () => {
  tenant = await createTenant();
  key = await createTestApiKey(tenant.id);
  for (const [name, type] of [['plan', 'string'], ['tags', 'string_list'], ['age', 'number']] as const) {
    definitionIds[name] = await defineAttribute(tenant.owner, tenant.id, name, type);
    world.definitions[name] = type;
  }
  for (const [name, threshold] of [['Silver', 100], ['Gold', 500]] as const) {
    tierIds[name] = (await createTierViaApi(tenant.owner, tenant.id, name, threshold)).id;
    world.tiers.push({ id: tierIds[name] ?? '', threshold });
  }
  for (const country of ['DE', 'FR', null, 'DE', 'FR', null]) {
    const created = await createCustomerViaApi(key, country === null ? {} : { country_code: country });
    people.push({ id: created.id, status: 'active', country, xpBalance: 0, lifetimeXp: 0, attributes: {} });
  }
  await earn(0, 600);
  await earn(1, 150);
  await earn(2, 320);
  await earn(3, 150);
  await setAttributes(0, { plan: 'pro', tags: ['vip'], age: 40 });
  await setAttributes(1, { plan: 'pro plus', age: 25 });
  await setAttributes(2, { plan: 'pro' });
  await setAttributes(3, { plan: 'free', tags: ['early'] });
  const ruleSets: MemoryRules[] = [
    { operator: 'and', predicates: [{ type: 'tier', op: 'eq', value: tierIds.Gold }] },
    { operator: 'or', predicates: [{ type: 'status', op: 'eq', value: 'suspended' }, { type: 'xp_balance', op: 'gte', value: '300' }] },
    { operator: 'and', predicates: [attr('plan', 'contains', 'pro'), { type: 'tier', op: 'in', value: JSON.stringify([tierIds.Silver, tierIds.Gold]) }] },
    { operator: 'or', predicates: [attr('tags', 'contains', 'vip'), attr('age', 'gt', '30')] },
    { operator: 'and', predicates: [attr('plan', 'not_exists'), { type: 'lifetime_xp', op: 'lt', value: '200' }] },
    { operator: 'and', predicates: [{ type: 'tier', op: 'not_exists' }] },
    { operator: 'or', predicates: [{ type: 'country', op: 'eq', value: 'DE' }, { type: 'country', op: 'not_exists' }] },
  ];
  for (const rules of ruleSets) saved.push({ id: (await createCohort(tenant.owner, tenant.id, { ...rules, version: 1 })).id, rules });
});

describe('cohort membership after each kind of write', () => {
  it('is exact when the cohorts are saved', async () => {
    await expectAllExact();
  });

  it('follows an earn (balance, lifetime XP and so the tier)', async () => {
    await earn(1, 400);
    await expectAllExact();
  });

  it('follows attribute values written and cleared', async () => {
    await setValues(tenant.owner, tenant.id, person(0).id, { tags: null });
    delete person(0).attributes.tags;
    await setAttributes(4, { plan: 'pro', tags: ['vip', 'late'], age: 31 });
    await expectAllExact();
  });

  it('follows a status change and a country change', async () => {
    const res = await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/customers/${person(2).id}`), { status: 'suspended' });
    expectOk(res, 200, successFlagSchema);
    person(2).status = 'suspended';
    const external = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/customers/${person(5).id}`)), 200, customerSchema).external_id;
    const moved = await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: external, country_code: 'FR' } });
    expect(expectOk(moved, 200, customerSchema).country_code).toBe('FR');
    person(5).country = 'FR';
    await expectAllExact();
  });

  it('follows the tier ladder: a tier created, a threshold moved, a tier deleted', async () => {
    const platinum = await createTierViaApi(tenant.owner, tenant.id, 'Platinum', 300);
    world.tiers.push({ id: platinum.id, threshold: 300 });
    await expectAllExact();
    const body = { tier_name: 'Gold', min_xp_threshold: 200, benefits_description: '', color: '', icon: '' };
    expectOk(await portalCall(tenant.owner, 'PUT', tenantPath(tenant.id, `/tiers/${tierIds.Gold}`), body), 200, successFlagSchema);
    world.tiers = world.tiers.map((tier) => (tier.id === tierIds.Gold ? { ...tier, threshold: 200 } : tier));
    await expectAllExact();
    expectOk(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/tiers/${tierIds.Silver}`)), 200, successFlagSchema);
    world.tiers = world.tiers.filter((tier) => tier.id !== tierIds.Silver);
    await expectAllExact();
  });

  it('follows a definition deleted (its key dead) and re-defined with another type', async () => {
    expectOk(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/attributes/${definitionIds.plan}`)), 200, successFlagSchema);
    delete world.definitions.plan;
    for (const customer of people) delete customer.attributes.plan;
    await expectAllExact();
    const listed = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, '/cohorts?limit=100')), 200, pageSchema(cohortSchema));
    expect(listed.items.filter((cohort) => cohort.dead_keys.length > 0).map((cohort) => cohort.dead_keys)).toEqual([['plan'], ['plan']]);
    // Back as a number: `contains` no longer fits (never holds), `not_exists` does (no values yet).
    await defineAttribute(tenant.owner, tenant.id, 'plan', 'number');
    world.definitions.plan = 'number';
    await expectAllExact();
    await setAttributes(2, { plan: 7 });
    await expectAllExact();
  });

  it('compiles a cohort saved before migration 0003 on its first read, then keeps it current', async () => {
    const id = newId('coh');
    const rules: MemoryRules = { operator: 'or', predicates: [{ type: 'xp_balance', op: 'gte', value: '300' }, { type: 'attribute', key: 'tags', op: 'contains', value: 'vip' }] };
    const stored = { ...rules, version: 1, predicates: rules.predicates.map((p) => ({ key: '', value: '', ...p })) };
    await db(tenant.id).insert(cohorts).values({ id, tenantId: tenant.id, name: 'Saved before 0003', rules: stored, createdBy: tenant.owner.accountId });
    saved.push({ id, rules });
    await expectAllExact();
    await earn(5, 300);
    await expectAllExact();
  });
});
