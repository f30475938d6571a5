import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { cohortPredicates, cohortRefreshes, cohorts, compiledCohorts } from '../db/schema';
import type { CompiledPredicate } from '../domain/cohort-forms';
import type { CohortRules } from '../domain/cohort-rules';
import { ONE_ROW, selectedRow } from './insert-select';

/**
 * The statements that store a cohort's compiled rules and request its re-evaluation over every
 * customer of the tenant (the `cohort_refresh` trigger of src/db/sql/cohort-recomputes.sql records the job that
 * services/cohort-recomputes.ts applies in chunks), for the batch that saves the rules, after the
 * cohort row's own statement. Each one does nothing when the cohort does not exist
 * (refused by the per-tenant limit, or deleted meanwhile), so no compiled row outlives its cohort.
 *
 * The predicates travel as one JSON parameter (D1 binds at most 100 parameters per statement).
 */
export function compileCohortStatements(db: Database, tenantId: string, cohortId: string, rules: CohortRules, predicates: readonly CompiledPredicate[]) {
  const cohortExists = sql`exists (select 1 from ${cohorts} where ${cohorts.tenantId} = ${tenantId} and ${cohorts.id} = ${cohortId})`;
  const rows = JSON.stringify(predicates);
  const field = (path: string) => sql`json_extract(p.value, ${path})`;
  const compiled = selectedRow(compiledCohorts, { tenantId, cohortId, operator: rules.operator, memberCount: 0, deadKeys: '[]' });
  // An attribute predicate's current form (definition, storage, operand) is set by the refresh.
  const predicateRows = selectedRow(cohortPredicates, {
    tenantId,
    cohortId,
    position: sql`p.key`,
    subject: field('$.subject'),
    attributeKey: field('$.key'),
    op: field('$.op'),
    forms: field('$.forms'),
    definitionId: null,
    storage: field('$.operand.storage'),
    operandText: field('$.operand.text'),
    operandNumber: field('$.operand.number'),
    operandList: field('$.operand.list'),
  });
  const refresh = selectedRow(cohortRefreshes, { tenantId, cohortId, candidates: 'everyone', fromLifetimeXp: null, belowLifetimeXp: null, fromSeq: null, toSeq: null });
  return [
    db
      .insert(compiledCohorts)
      .select(db.select(compiled).from(ONE_ROW).where(cohortExists))
      .onConflictDoUpdate({ target: [compiledCohorts.tenantId, compiledCohorts.cohortId], set: { operator: rules.operator } }),
    db.delete(cohortPredicates).where(and(eq(cohortPredicates.tenantId, tenantId), eq(cohortPredicates.cohortId, cohortId))),
    db.insert(cohortPredicates).select(db.select(predicateRows).from(sql`json_each(${rows}) p`).where(cohortExists)),
    db.insert(cohortRefreshes).select(db.select(refresh).from(ONE_ROW).where(cohortExists)),
  ] as const;
}
