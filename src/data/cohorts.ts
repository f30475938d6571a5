import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { attributeDefinitions, cohorts, customers, type Cohort } from '../db/schema';
import type { CohortRules } from '../domain/cohort-rules';
import { offsetOf, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';

const cohortWhere = (tenantId: string, id: string) => and(eq(cohorts.tenantId, tenantId), eq(cohorts.id, id));

/** Newest first; rowid (insertion order) breaks ties within one millisecond. */
export function cohortPageQueries(db: Database, tenantId: string, params: PageParams) {
  const where = eq(cohorts.tenantId, tenantId);
  return [
    db.select().from(cohorts).where(where).orderBy(desc(cohorts.createdAt), desc(sql`rowid`)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(cohorts).where(where),
  ] as const;
}

export function cohortByIdQuery(db: Database, tenantId: string, id: string) {
  return db.select().from(cohorts).where(cohortWhere(tenantId, id)).limit(1);
}

/**
 * The definitions of the keys that the tenant's cohorts (or one cohort) name, read from the stored
 * rules in SQL so that it can share a batch with the cohorts themselves.
 */
export function definitionsNamedByCohortsQuery(db: Database, tenantId: string, cohortId?: string) {
  const namedKeys = sql`select json_extract(p.value, '$.key') from ${cohorts}, json_each(${cohorts.rules}, '$.predicates') as p
    where ${cohorts.tenantId} = ${tenantId} and json_extract(p.value, '$.type') = 'attribute'
    ${cohortId === undefined ? sql`` : sql`and ${cohorts.id} = ${cohortId}`}`;
  return db
    .select({ id: attributeDefinitions.id, key: attributeDefinitions.key, type: attributeDefinitions.type })
    .from(attributeDefinitions)
    .where(and(eq(attributeDefinitions.tenantId, tenantId), sql`${attributeDefinitions.key} in (${namedKeys})`));
}

export type NewCohort = { id: string; tenantId: string; name: string; description: string; rules: CohortRules; createdBy: string };

export function insertCohortQuery(db: Database, cohort: NewCohort) {
  const now = isoNow();
  return db
    .insert(cohorts)
    .values({ ...cohort, createdAt: now, updatedAt: now })
    .returning();
}

export type CohortChanges = Partial<Pick<Cohort, 'name' | 'description'>> & { rules?: CohortRules };

export function updateCohortQuery(db: Database, tenantId: string, id: string, changes: CohortChanges) {
  return db
    .update(cohorts)
    .set({ ...changes, updatedAt: isoNow() })
    .where(cohortWhere(tenantId, id))
    .returning();
}

/** Removes only the saved rule (spec): customers and their values stay. */
export async function deleteCohort(db: Database, tenantId: string, id: string): Promise<boolean> {
  const rows = await db.delete(cohorts).where(cohortWhere(tenantId, id)).returning({ id: cohorts.id });
  return rows.length > 0;
}

/** `condition` comes from data/cohort-conditions.ts (it already scopes to the tenant). */
export function memberCountQuery(db: Database, condition: SQL) {
  return db.select({ value: count() }).from(customers).where(condition);
}

export function memberPageQuery(db: Database, condition: SQL, params: PageParams) {
  return db.select().from(customers).where(condition).orderBy(desc(customers.createdAt), desc(customers.id)).limit(params.limit).offset(offsetOf(params));
}
