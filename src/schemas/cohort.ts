import { z } from '@hono/zod-openapi';
import { cohortOps } from '../domain/cohort-ops';
import { cohortOperators, predicateTypes } from '../domain/cohort-rules';
import { dateTime } from './common';

export const MAX_PREDICATES = 20;

const predicateInput = z
  .strictObject({
    type: z.enum(predicateTypes),
    key: z.string().max(64).optional().openapi({ description: 'The attribute key (attribute predicates only)', example: 'favorite_color' }),
    op: z.enum(cohortOps),
    value: z.string().max(8192).optional().openapi({
      description: 'Compared value as a string; for `in` a JSON array string; omitted for exists/not_exists',
      example: 'blue',
    }),
  })
  .openapi('CohortPredicateInput');

export const cohortRulesInputSchema = z
  .strictObject({
    operator: z.enum(cohortOperators),
    predicates: z.array(predicateInput).min(1).max(MAX_PREDICATES),
    version: z.literal(1).default(1),
  })
  .openapi('CohortRulesInput', {
    description:
      'Predicate types: `attribute` (with `key`), `tier` (value a tier id), `status`, `country` (alpha-2), `xp_balance`, `lifetime_xp`. Ops that fit each type are in docs/DECISIONS.md; a predicate that does not fit is a 422 at `rules.predicates.<i>.<key|op|value>`.',
  });

export type CohortRulesInput = z.infer<typeof cohortRulesInputSchema>;

export const createCohortBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200).openapi({ example: 'Blue lovers' }),
    description: z.string().max(2000).default(''),
    rules: cohortRulesInputSchema,
  })
  .openapi('CreateCohortBody');

export type CreateCohortInput = z.infer<typeof createCohortBodySchema>;

/** PATCH: the fields sent replace the stored ones (`rules` as a whole). */
export const updateCohortBodySchema = z
  .strictObject({
    name: createCohortBodySchema.shape.name.optional(),
    description: z.string().max(2000).optional(),
    rules: cohortRulesInputSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one of name, description, rules')
  .openapi('UpdateCohortBody');

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
    member_count: z.number().int(),
    dead_keys: z.array(z.string()).openapi({ description: 'Attribute keys named by the rules that are no longer defined' }),
    rules: z.strictObject({ operator: z.string(), predicates: z.array(predicateSchema), version: z.number() }),
  })
  .openapi('Cohort');

export type CohortView = z.infer<typeof cohortSchema>;
