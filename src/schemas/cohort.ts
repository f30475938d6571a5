import { z } from '@hono/zod-openapi';
import { cohortOperators, cohortOps, MAX_CONTAINS_LENGTH, MAX_IN_ITEMS, predicateTypes } from '../domain/cohort-ops';
import { dateTime, optionalText, trimmedText } from './common';

/** Rule-size limits (docs/decisions/0048-cohort-rule-limits.md); the others are in domain/cohort-rules.ts. */
export const MAX_PREDICATES = 20;
export const MAX_PREDICATE_VALUE_LENGTH = 8192;
export const MAX_COHORTS_PER_TENANT = 100;

const predicateInput = z
  .strictObject({
    type: z.enum(predicateTypes),
    key: z.string().max(64).optional().openapi({ description: 'The attribute key (attribute predicates only)', example: 'favorite_color' }),
    op: z.enum(cohortOps),
    value: z.string().max(MAX_PREDICATE_VALUE_LENGTH).optional().openapi({
      description: `Compared value as a string, at most ${MAX_PREDICATE_VALUE_LENGTH} characters; for \`contains\` at most ${MAX_CONTAINS_LENGTH} characters; for \`in\` a JSON array string of 1 to ${MAX_IN_ITEMS} values; omitted for exists/not_exists. Past a limit: 422 at \`rules.predicates.<i>.value\`.`,
      example: 'blue',
    }),
  })
  .openapi('CohortPredicateInput');

export const cohortRulesInputSchema = z
  .strictObject({
    operator: z.enum(cohortOperators),
    predicates: z
      .array(predicateInput)
      .min(1)
      .max(MAX_PREDICATES)
      .openapi({ description: `1 to ${MAX_PREDICATES} predicates (more: 422 at \`rules.predicates\`)` }),
    version: z.literal(1).default(1),
  })
  .openapi('CohortRulesInput', {
    description:
      'Predicate types: `attribute` (with `key`), `tier` (value a tier id), `status`, `country` (alpha-2), `xp_balance`, `lifetime_xp`. Ops that fit each type are in docs/decisions/0018-cohort-rules.md; a predicate that does not fit is a 422 at `rules.predicates.<i>.<key|op|value>`. ' +
      `Size limits (they bound what keeping member counts exact costs each write): ${MAX_PREDICATES} predicates, values of ${MAX_PREDICATE_VALUE_LENGTH} characters, \`contains\` operands of ${MAX_CONTAINS_LENGTH}, \`in\` lists of ${MAX_IN_ITEMS}; a tenant has at most ${MAX_COHORTS_PER_TENANT} cohorts (creating one more: 422).`,
  });

export type CohortRulesInput = z.infer<typeof cohortRulesInputSchema>;

export const createCohortBodySchema = z
  .strictObject({
    name: trimmedText(200).openapi({ example: 'Blue lovers' }),
    description: optionalText(2000, 'many').default(''),
    rules: cohortRulesInputSchema,
  })
  .openapi('CreateCohortBody');

export type CreateCohortInput = z.infer<typeof createCohortBodySchema>;

/** PATCH: the fields sent replace the stored ones (`rules` as a whole). */
export const updateCohortBodySchema = z
  .strictObject({
    name: createCohortBodySchema.shape.name.optional(),
    description: optionalText(2000, 'many').optional(),
    rules: cohortRulesInputSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one of name, description, rules')
  .openapi('UpdateCohortBody', { minProperties: 1 });

export type UpdateCohortInput = z.infer<typeof updateCohortBodySchema>;

const predicateSchema = z.strictObject({ type: z.string(), key: z.string(), op: z.string(), value: z.string() }).openapi('CohortPredicate');

/** Spec: cohort. */
export const cohortSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    created_by: z.string(),
    created_at: dateTime,
    updated_at: dateTime,
    member_count: z.number().int().openapi({ description: 'Exact for the current data: maintained with every write that can change it' }),
    dead_keys: z.array(z.string()).openapi({ description: 'Attribute keys named by the rules that are no longer defined' }),
    rules: z.strictObject({ operator: z.string(), predicates: z.array(predicateSchema), version: z.number() }),
  })
  .openapi('Cohort');

export type CohortView = z.infer<typeof cohortSchema>;

/** Present while a rule save or tier-ladder change is still being applied to some of the cohorts answered (docs/decisions/0049-cohort-recompute-chunks.md). */
export const RECOMPUTING_HEADER = 'X-Cohorts-Recomputing';

export const recomputingResponseHeaders = {
  [RECOMPUTING_HEADER]: {
    description:
      'Comma-separated ids of the cohorts answered whose re-evaluation over the tenant’s customers (after their rules, an attribute definition or the tier ladder changed) is still being applied in the background: until it is gone, their `member_count` and members may still reflect the previous rules for some customers. Absent when every cohort answered is exact.',
    schema: { type: 'string' as const },
  },
};
