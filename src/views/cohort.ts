import type { Cohort } from '../db/schema';
import { storedRules } from '../domain/cohort-rules';
import type { CohortView } from '../schemas/cohort';

/** A cohort with what is computed at read time: its exact member count and its dead keys. */
export function toCohortView(cohort: Cohort, computed: { memberCount: number; deadKeys: string[] }): CohortView {
  const rules = storedRules(cohort.rules);
  return {
    id: cohort.id,
    name: cohort.name,
    description: cohort.description,
    created_by: cohort.createdBy,
    created_at: cohort.createdAt,
    updated_at: cohort.updatedAt,
    member_count: computed.memberCount,
    dead_keys: computed.deadKeys,
    rules: { operator: rules.operator, predicates: rules.predicates, version: rules.version },
  };
}
