import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { valueWriteStatements } from '../../src/data/attributes';
import { customerAttributeValues, customers, customerStatuses } from '../../src/db/schema';
import { parseAttributeValue } from '../../src/domain/attributes';
import { attributeTypeOps, fieldPredicateOps } from '../../src/domain/cohort-rules';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { expectOk } from '../support/http';
import { createCohort, defineAttribute, insertTier, tenantPath } from '../support/segments';
import { createTenant, db, portalCall, type TestTenant } from '../support/world';
import { matches, type AttributeTypeName, type AttributeValue, type MemoryCustomer, type MemoryPredicate, type MemoryRules, type MemoryWorld } from './evaluate';

/**
 * Property: for generated customers, attribute values and rules, the members the API lists (one
 * SQL query over D1) are exactly those a straightforward in-memory evaluation selects, and
 * `member_count` equals their number. Small value pools make ties and edge cases frequent.
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

/** Replaces the tenant's customers and values with the generated ones, through the data layer. */
async function store(generated: GeneratedCustomer[]): Promise<MemoryCustomer[]> {
  await db().batch([
    db().delete(customerAttributeValues).where(eq(customerAttributeValues.tenantId, tenant.id)),
    db().delete(customers).where(eq(customers.tenantId, tenant.id)),
  ]);
  const rows = generated.map((c) => ({ ...c, id: newId('cus') }));
  for (const row of rows) {
    const writes = Object.entries(row.attributes).flatMap(([key, raw]) => {
      if (raw === undefined) return [];
      const parsed = parseAttributeValue(world.definitions[key] ?? 'string', raw);
      if (!parsed.ok) throw new Error(`generated an invalid value for ${key}: ${parsed.message}`);
      return [{ definitionId: definitionIds[key] ?? '', stored: parsed.value }];
    });
    const insert = db()
      .insert(customers)
      .values({ id: row.id, tenantId: tenant.id, externalId: row.id, status: row.status, countryCode: row.country, xpBalance: row.xpBalance, lifetimeXp: row.lifetimeXp });
    await db().batch([insert, ...valueWriteStatements(db(), tenant.id, row.id, writes)]);
  }
  return rows;
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

describe('cohort SQL against an in-memory evaluation', () => {
  it('selects exactly the customers the rules match', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(customerArbitrary, { maxLength: 8 }), fc.array(rulesArbitrary(), { minLength: 1, maxLength: 3 }), async (generated, ruleSets) => {
        const stored = await store(generated);
        for (const rules of ruleSets) {
          const cohort = await createCohort(tenant.owner, tenant.id, { ...rules, version: 1 });
          const expected = stored.filter((c) => matches(rules, c, world)).map((c) => c.id).sort();
          // At most 8 customers: one page holds them all; the count comes from its own query.
          const page = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}/members?limit=100`)), 200, pageSchema(customerSchema));
          expect(page.items.map((c) => c.id).sort()).toEqual(expected);
          expect([cohort.member_count, page.total_count]).toEqual([expected.length, expected.length]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
