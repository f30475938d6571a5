import type { Cohort } from '../db/schema';
import type { CohortView } from '../schemas/cohort';

/** What the service works out at read time: the exact member count, the dead keys, the typed rules. */
export type CohortComputed = { memberCount: number; deadKeys: string[]; rules: CohortView['rules'] };

export function toCohortView(cohort: Cohort, computed: CohortComputed): CohortView {
  const { operator, predicates, version } = computed.rules;
  return {
    id: cohort.id,
    name: cohort.name,
    description: cohort.description,
    created_by: cohort.createdBy,
    created_at: cohort.createdAt,
    updated_at: cohort.updatedAt,
    member_count: computed.memberCount,
    dead_keys: computed.deadKeys,
    rules: { operator, predicates, version },
  };
}
