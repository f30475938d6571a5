import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { cohortMemberships, cohortRecomputes, cohorts, compiledCohorts, customers, type Cohort } from '../db/schema';
import type { CohortRules } from '../domain/cohort-rules';
import { offsetOf, type PageParams, type PageWindow } from '../lib/paging';
import { ONE_ROW, selectedRow } from './insert-select';

const cohortWhere = (tenantId: string, id: string) => and(eq(cohorts.tenantId, tenantId), eq(cohorts.id, id));

/**
 * A cohort with what the database maintains for it (src/db/sql/cohort-membership.sql): `memberCount` and `deadKeys`
 * are null only for a cohort saved before migration 0003 and not compiled since; `recomputing`
 * while a re-evaluation over its customers is still being applied (src/db/sql/cohort-recomputes.sql).
 */
function cohortsWithCounts(db: Database) {
  return db
    .select({
      ...getTableColumns(cohorts),
      memberCount: compiledCohorts.memberCount,
      deadKeys: compiledCohorts.deadKeys,
      recomputing: sql<boolean>`${cohortRecomputes.cohortId} is not null`.mapWith(Boolean),
    })
    .from(cohorts)
    .leftJoin(compiledCohorts, and(eq(compiledCohorts.tenantId, cohorts.tenantId), eq(compiledCohorts.cohortId, cohorts.id)))
    .leftJoin(cohortRecomputes, and(eq(cohortRecomputes.tenantId, cohorts.tenantId), eq(cohortRecomputes.cohortId, cohorts.id)));
}

export type CohortWithCounts = Awaited<ReturnType<typeof cohortByIdQuery>>[number];

/** Newest first; rowid (insertion order) breaks ties within one millisecond. Reads one row per cohort listed. */
export function cohortPageQueries(db: Database, tenantId: string, params: PageParams) {
  const where = eq(cohorts.tenantId, tenantId);
  return [
    cohortsWithCounts(db).where(where).orderBy(desc(cohorts.createdAt), desc(sql`${cohorts}.rowid`)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(cohorts).where(where),
  ] as const;
}

export function cohortByIdQuery(db: Database, tenantId: string, id: string) {
  return cohortsWithCounts(db).where(cohortWhere(tenantId, id)).limit(1);
}

/** Which of `ids` are cohorts of the tenant (what an earning rule's `cohort` predicates may name); an empty list matches nothing. */
export function cohortIdsQuery(db: Database, tenantId: string, ids: readonly string[]) {
  return db.select({ id: cohorts.id }).from(cohorts).where(and(eq(cohorts.tenantId, tenantId), inArray(cohorts.id, [...ids])));
}

export type NewCohort = { id: string; tenantId: string; name: string; description: string; rules: CohortRules; createdBy: string };

/** Inserts unless the tenant already has `limit` cohorts (decided in the batch, so race-free): no row returned then. */
export function insertCohortQuery(db: Database, cohort: NewCohort, limit: number, now: string) {
  const tenantCohorts = db.select({ value: count() }).from(cohorts).where(eq(cohorts.tenantId, cohort.tenantId));
  const row = selectedRow(cohorts, { ...cohort, rules: JSON.stringify(cohort.rules), createdAt: now, updatedAt: now });
  return db
    .insert(cohorts)
    .select(db.select(row).from(ONE_ROW).where(sql`(${tenantCohorts}) < ${limit}`))
    .returning({ id: cohorts.id });
}

export type CohortChanges = Partial<Pick<Cohort, 'name' | 'description'>> & { rules?: CohortRules };

export function updateCohortQuery(db: Database, tenantId: string, id: string, changes: CohortChanges, now: string) {
  return db
    .update(cohorts)
    .set({ ...changes, updatedAt: now })
    .where(cohortWhere(tenantId, id))
    .returning({ id: cohorts.id });
}

/** Removes only the saved rule (spec): customers and their values stay. Its memberships go with it (trigger). */
export async function deleteCohort(db: Database, tenantId: string, id: string): Promise<boolean> {
  const rows = await db.delete(cohorts).where(cohortWhere(tenantId, id)).returning({ id: cohorts.id });
  return rows.length > 0;
}

/**
 * A window of the cohort's members through the maintained memberships, newest first (read from the
 * oldest end and reversed when `window.fromOldest`, lib/paging.ts `pageWindow`).
 */
export function memberPageQuery(db: Database, tenantId: string, cohortId: string, window: PageWindow) {
  const order = window.fromOldest ? asc : desc;
  return db
    .select(getTableColumns(customers))
    .from(cohortMemberships)
    .innerJoin(customers, and(eq(customers.tenantId, cohortMemberships.tenantId), eq(customers.id, cohortMemberships.customerId)))
    .where(and(eq(cohortMemberships.tenantId, tenantId), eq(cohortMemberships.cohortId, cohortId)))
    .orderBy(order(cohortMemberships.customerCreatedAt), order(cohortMemberships.customerId))
    .limit(window.limit)
    .offset(window.offset);
}
