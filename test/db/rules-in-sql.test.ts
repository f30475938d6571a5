import { describe, expect, it } from 'vitest';
import { allDefinitions, normalizedSql, replacementStatements, type SqlObjectKind } from '../../scripts/lib/sql-definitions';
import { PREDICATE_COMPARISON } from '../../src/data/earning-evaluation';
import { pageSchema } from '../../src/lib/paging';
import { cohortSchema } from '../../src/schemas/cohort';
import { customerSchema } from '../../src/schemas/customer';
import { addXp, createCustomerViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { createCohort, rulesOf, tenantPath } from '../support/segments';
import { shardBindings, tenantShard } from '../support/shards';
import { createTenant, createTestApiKey, gatewayCall, portalCall } from '../support/world';

/** src/db/sql/*.sql, by file name, as the files are now (not as a migration last wrote them). */
const files = Object.fromEntries(
  Object.entries(import.meta.glob('../../src/db/sql/*.sql', { query: '?raw', import: 'default', eager: true })).map(([path, text]) => [path.split('/').pop() ?? path, text]),
);
const definitions = allDefinitions(files);

type Held = { kind: SqlObjectKind; name: string; sql: string };

/** The triggers and views a shard holds (src/db/sql is shard SQL: migrations/shard writes it). */
async function heldByDatabase(db: D1Database): Promise<Held[]> {
  const { results } = await db.prepare("SELECT type AS kind, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name").all<Held>();
  return results;
}

const compared = (objects: readonly Held[]) =>
  objects.map(({ kind, name, sql }) => ({ kind, name, sql: normalizedSql(sql) })).sort((a, b) => a.name.localeCompare(b.name));

describe('rules in SQL (src/db/sql, docs/ARCHITECTURE.md "Rules in SQL")', () => {
  it("an earning rule compares a customer predicate exactly as the cohort evaluator's view does", () => {
    const view = definitions.find((definition) => definition.name === 'cohort_predicate_results');
    const comparison = /coalesce\(CASE[\s\S]*?END, 0\)/.exec(normalizedSql(view?.sql ?? ''))?.[0];
    expect(comparison).toBeDefined();
    expect(normalizedSql(PREDICATE_COMPARISON)).toBe(comparison);
  });

  it('every migrated shard holds exactly the triggers and views of src/db/sql/*.sql', async () => {
    expect(definitions.length).toBeGreaterThan(0);
    for (const { name, db } of shardBindings()) {
      expect(
        compared(await heldByDatabase(db)),
        `${name}: migrations/shard and src/db/sql disagree: after editing a file there, run \`npm run db:sql -- <name>\` and commit the migration it writes`,
      ).toEqual(compared(definitions));
    }
  });

  it('replacing them on a database in use loses no count, position or membership', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const before = [await createCustomerViaApi(key), await createCustomerViaApi(key)];
    const cohort = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'lifetime_xp', op: 'gte', value: '10' }));
    await addXp(tenant.id, before[0]!.id, 10);

    const { db } = await tenantShard(tenant.id);
    const statements = replacementStatements(definitions, await heldByDatabase(db));
    await db.batch(statements.map((statement) => db.prepare(statement)));

    const after = await createCustomerViaApi(key);
    await addXp(tenant.id, after.id, 20);
    const list = expectOk(await gatewayCall(key, 'GET', '/api/v1/gateway/customers'), 200, pageSchema(customerSchema));
    expect(list.total_count).toBe(3);
    expect(list.items.map((item) => item.id)).toEqual([after.id, before[1]!.id, before[0]!.id]);
    const read = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 200, cohortSchema);
    expect(read.member_count).toBe(2);
    expect(compared(await heldByDatabase(db))).toEqual(compared(definitions));
  });
});
