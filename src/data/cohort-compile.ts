import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { cohortPredicates, cohortRefreshes, cohorts, compiledCohorts } from '../db/schema';
import type { CompiledPredicate } from '../domain/cohort-forms';
import type { CohortRules } from '../domain/cohort-rules';

/**
 * The statements that store a cohort's compiled rules and request its re-evaluation over every
 * customer of the tenant (the `cohort_refresh` trigger of migrations/0008 records the job that
 * services/cohort-recomputes.ts applies in chunks), for the batch that saves the rules, after the
 * cohort row's own statement. Each one does nothing when the cohort does not exist
 * (refused by the per-tenant limit, or deleted meanwhile), so no compiled row outlives its cohort.
 *
 * The predicates travel as one JSON parameter (D1 binds at most 100 parameters per statement).
 */
export function compileCohortStatements(db: Database, tenantId: string, cohortId: string, rules: CohortRules, predicates: readonly CompiledPredicate[]) {
  const cohortExists = sql`exists (select 1 from ${cohorts} where ${cohorts.tenantId} = ${tenantId} and ${cohorts.id} = ${cohortId})`;
  const rows = JSON.stringify(predicates);
  return [
    db
      .insert(compiledCohorts)
      .select(sql`select ${tenantId}, ${cohortId}, ${rules.operator}, 0, '[]' where ${cohortExists}`)
      .onConflictDoUpdate({ target: [compiledCohorts.tenantId, compiledCohorts.cohortId], set: { operator: rules.operator } }),
    db.delete(cohortPredicates).where(and(eq(cohortPredicates.tenantId, tenantId), eq(cohortPredicates.cohortId, cohortId))),
    // Every column, in the table's order; an attribute predicate's current form is set by the refresh.
    db.insert(cohortPredicates).select(sql`select ${tenantId}, ${cohortId}, p.key, json_extract(p.value, '$.subject'), json_extract(p.value, '$.key'),
        json_extract(p.value, '$.op'), json_extract(p.value, '$.forms'), null, json_extract(p.value, '$.operand.storage'),
        json_extract(p.value, '$.operand.text'), json_extract(p.value, '$.operand.number'), json_extract(p.value, '$.operand.list')
      from json_each(${rows}) p where ${cohortExists}`),
    db.insert(cohortRefreshes).select(sql`select ${tenantId}, ${cohortId}, 'everyone', null, null, null, null where ${cohortExists}`),
  ] as const;
}
