/** Comparison ops of cohort rule predicates (CONTRACT.md, Attributes and cohorts). */
export const cohortOps = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists', 'not_exists'] as const;

export type CohortOp = (typeof cohortOps)[number];
