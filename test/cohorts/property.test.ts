import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { valueWriteStatements } from '../../src/data/attributes';
import { customerAttributeValues, customers, customerStatuses } from '../../src/db/schema';
import { parseAttributeValue } from '../../src/domain/attributes';
import { attributeTypeOps, fieldPredicateOps } from '../../src/domain/cohort-ops';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { cohortSchema } from '../../src/schemas/cohort';
import { customerSchema } from '../../src/schemas/customer';
import { expectOk } from '../support/http';
import { insertTier } from '../support/rewards';
import { createCohort, defineAttribute, tenantPath } from '../support/segments';
import { createTenant, db, portalCall, type TestTenant } from '../support/world';
import { matches, type AttributeTypeName, type AttributeValue, type MemoryCustomer, type MemoryPredicate, type MemoryRules, type MemoryWorld } from './evaluate';

/**
 * Property: for generated customers, attribute values and rules, the members the API lists (the
 * memberships the database maintains, src/db/sql/cohort-membership.sql) are exactly those a straightforward
 * in-memory evaluation selects, and `member_count` equals their number: when the cohort is saved,
 * after each customer's fields and values change, and after customers are replaced. Small value
 * pools make ties and edge cases frequent.
 */

const pools = {
  string: ['a', 'b', 'ab', 'A', '%', "'", 'a_b'],
  number: [-1, 0, 1.5, 2, 10, 100],
  boolean: [true, false],
  date: ['1999-12-31', '2024-01-01', '2024-01-10', '2024-02-01'],
  // Two spellings of one instant, and an instant between them at another offset.
  datetime: ['2024-01-01T00:00:00Z', '2024-01-01T02:00:00+02:00', '2024-01-01T01:00:00+00:00', '2023-12-31T23:30:00-01:00'],
  string_list: ['x', 'y', 'z'],
} as const;

const types: AttributeTypeName[] = ['string', 'number', 'boolean', 'date', 'datetime', 'string_list'];
const keyOf = (type: AttributeTypeName) => `attr_${type}`;
const countries = ['DE', 'FR'];

function valueArbitrary(type: AttributeTypeName): fc.Arbitrary<AttributeValue> {
  if (type === 'string_list') return fc.subarray([...pools.string_list]);
  return fc.constantFrom<AttributeValue>(...pools[type]);
}

const customerArbitrary = fc
  .record({
    status: fc.constantFrom(...customerStatuses),
    country: fc.constantFrom<string | null>(null, ...countries),
    xpBalance: fc.integer({ min: 0, max: 300 }),
    extraLifetime: fc.integer({ min: 0, max: 300 }),
    attributes: fc.record(Object.fromEntries(types.map((type) => [keyOf(type), valueArbitrary(type)])), { requiredKeys: [] }),
  })
  .map(({ extraLifetime, ...c }) => ({ ...c, lifetimeXp: c.xpBalance + extraLifetime }));

type GeneratedCustomer = typeof customerArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** A predicate value string of the kind `type` compares against (an `in` list as a JSON array). */
function operandArbitrary(pool: readonly (string | number)[], op: string): fc.Arbitrary<string | undefined> {
  if (op === 'exists' || op === 'not_exists') return fc.constant(undefined);
  if (op === 'in') return fc.uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 }).map((list) => JSON.stringify(list));
  return fc.constantFrom(...pool).map(String);
}

function attributePredicate(type: AttributeTypeName): fc.Arbitrary<MemoryPredicate> {
  const pool = type === 'boolean' ? ['true', 'false'] : [...pools[type]];
  return fc
    .constantFrom(...attributeTypeOps[type])
    .chain((op) => operandArbitrary(pool, op).map((value) => ({ type: 'attribute', key: keyOf(type), op, value })));
}

function fieldPredicate(type: keyof typeof fieldPredicateOps, pool: readonly (string | number)[]): fc.Arbitrary<MemoryPredicate> {
  return fc.constantFrom(...fieldPredicateOps[type]).chain((op) => operandArbitrary(pool, op).map((value) => ({ type, op, value })));
}

let tenant: TestTenant;
const world: MemoryWorld = { definitions: {}, tiers: [] };
const definitionIds: Record<string, string> = {};

function rulesArbitrary(): fc.Arbitrary<MemoryRules> {
  const xp = [0, 50, 100, 150, 200, 300];
  const predicate = fc.oneof(
    ...types.map(attributePredicate),
    fieldPredicate('tier', world.tiers.map((tier) => tier.id)),
    fieldPredicate('status', [...customerStatuses]),
    fieldPredicate('country', ['DE', 'fr', 'US']),
    fieldPredicate('xp_balance', xp),
    fieldPredicate('lifetime_xp', xp),
  );
  return fc.record({ operator: fc.constantFrom<'and' | 'or'>('and', 'or'), predicates: fc.array(predicate, { minLength: 1, maxLength: 4 }) });
}

/** The stored form of a generated customer's attribute values (null: no value, cleared on update). */
function valueWrites(attributes: GeneratedCustomer['attributes']) {
  return types.map((type) => {
    const key = keyOf(type);
    const raw = attributes[key];
    if (raw === undefined) return { definitionId: definitionIds[key] ?? '', stored: null };
    const parsed = parseAttributeValue(type, raw);
    if (!parsed.ok) throw new Error(`generated an invalid value for ${key}: ${parsed.message}`);
    return { definitionId: definitionIds[key] ?? '', stored: parsed.value };
  });
}

/** Replaces the tenant's customers and values with the generated ones, through the data layer. */
async function store(generated: GeneratedCustomer[]): Promise<MemoryCustomer[]> {
  await db(tenant.id).batch([
    db(tenant.id).delete(customerAttributeValues).where(eq(customerAttributeValues.tenantId, tenant.id)),
    db(tenant.id).delete(customers).where(eq(customers.tenantId, tenant.id)),
  ]);
  const rows = generated.map((c) => ({ ...c, id: newId('cus') }));
  for (const row of rows) {
    const writes = valueWrites(row.attributes).filter((write) => write.stored !== null);
    const insert = db(tenant.id)
      .insert(customers)
      .values({ id: row.id, tenantId: tenant.id, externalId: row.id, status: row.status, countryCode: row.country, xpBalance: row.xpBalance, lifetimeXp: row.lifetimeXp });
    await db(tenant.id).batch([insert, ...valueWriteStatements(db(tenant.id), tenant.id, row.id, writes, new Date().toISOString())]);
  }
  return rows;
}

/** Moves each stored customer to the state of its counterpart: fields updated, values written or cleared. */
async function mutate(stored: MemoryCustomer[], next: GeneratedCustomer[]): Promise<MemoryCustomer[]> {
  const rows = next.flatMap((customer, index) => {
    const id = stored[index]?.id;
    return id === undefined ? [] : [{ ...customer, id }];
  });
  for (const row of rows) {
    const update = db(tenant.id)
      .update(customers)
      .set({ status: row.status, countryCode: row.country, xpBalance: row.xpBalance, lifetimeXp: row.lifetimeXp })
      .where(eq(customers.id, row.id));
    await db(tenant.id).batch([update, ...valueWriteStatements(db(tenant.id), tenant.id, row.id, valueWrites(row.attributes), new Date().toISOString())]);
  }
  return rows;
}

/** The API's members and member_count of each cohort are exactly what the in-memory evaluation selects. */
async function expectExact(cohorts: { id: string; rules: MemoryRules }[], current: MemoryCustomer[]) {
  const listed = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, '/cohorts?limit=100')), 200, pageSchema(cohortSchema));
  for (const { id, rules } of cohorts) {
    const expected = current.filter((c) => matches(rules, c, world)).map((c) => c.id).sort();
    // At most 8 customers: one page holds them all.
    const page = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${id}/members?limit=100`)), 200, pageSchema(customerSchema));
    expect(page.items.map((c) => c.id).sort()).toEqual(expected);
    expect([listed.items.find((c) => c.id === id)?.member_count, page.total_count]).toEqual([expected.length, expected.length]);
  }
}

beforeAll(async () => {
  tenant = await createTenant();
  for (const type of types) {
    definitionIds[keyOf(type)] = await defineAttribute(tenant.owner, tenant.id, keyOf(type), type);
    world.definitions[keyOf(type)] = type;
  }
  world.tiers.push({ id: await insertTier(tenant.id, 'Silver', 100), threshold: 100 });
  world.tiers.push({ id: await insertTier(tenant.id, 'Gold', 200), threshold: 200 });
});

describe('cohort membership against an in-memory evaluation', () => {
  it('selects exactly the customers the rules match, when saved and after every kind of customer write', { timeout: 180_000 }, async () => {
    const pairs = fc.array(fc.tuple(customerArbitrary, customerArbitrary), { maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(pairs, fc.array(rulesArbitrary(), { minLength: 1, maxLength: 3 }), async (generated, ruleSets) => {
        // Customers first, then cohorts: the save evaluates every customer (cohort-level refresh).
        const stored = await store(generated.map(([before]) => before));
        const saved: { id: string; rules: MemoryRules }[] = [];
        for (const rules of ruleSets) saved.push({ id: (await createCohort(tenant.owner, tenant.id, { ...rules, version: 1 })).id, rules });
        await expectExact(saved, stored);
        // Then every field and value changes under the saved cohorts (per-customer refreshes).
        await expectExact(saved, await mutate(stored, generated.map(([, after]) => after)));
        // New customers under saved cohorts, and deleted ones leave them.
        await expectExact(saved, await store(generated.map(([, after]) => after)));
        for (const { id } of saved) await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/cohorts/${id}`));
      }),
      { numRuns: 30 },
    );
  });
});
