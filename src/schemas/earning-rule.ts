import { z } from '@hono/zod-openapi';
import { cohortOperators, cohortOps, MAX_CONTAINS_LENGTH, MAX_IN_ITEMS } from '../domain/cohort-ops';
import {
  EVENT_TYPE_PATTERN,
  FACTOR_DECIMALS,
  limitPeriods,
  MAX_FACTOR,
  MAX_RULE_LIMITS,
  MAX_RULE_MULTIPLIERS,
  MAX_RULE_PREDICATES,
  PROPERTY_KEY_PATTERN,
  RATE_DECIMALS,
  rulePredicateTypes,
} from '../domain/earning-limits';
import { earningRuleStatuses } from '../db/schema';
import { pageQuery } from '../lib/paging';
import { MAX_PREDICATE_VALUE_LENGTH } from './cohort';
import { dateTime, optionalText, resourceId, trimmedText, xpAmountInput, xpString } from './common';

export const eventType = z
  .string()
  .max(64)
  .regex(EVENT_TYPE_PATTERN, 'Must be 1-64 characters: a lowercase letter, then lowercase letters, digits, "_" or "."')
  .openapi({ example: 'order.paid' });

const rulePredicateInput = z
  .strictObject({
    type: z.enum(rulePredicateTypes),
    key: z.string().max(64).optional().openapi({ description: 'The attribute key (`attribute`) or event property key (`property`)', example: 'total' }),
    op: z.enum(cohortOps),
    value: z.string().max(MAX_PREDICATE_VALUE_LENGTH).optional().openapi({
      description: `Compared value as a string; for \`in\` a JSON array string of 1 to ${MAX_IN_ITEMS} values; for \`contains\` at most ${MAX_CONTAINS_LENGTH} characters; for \`cohort\` the cohort id; omitted for exists/not_exists.`,
      example: '20',
    }),
  })
  .openapi('EarningRulePredicateInput');

export const ruleConditionsInput = z
  .strictObject({
    operator: z.enum(cohortOperators),
    predicates: z.array(rulePredicateInput).max(MAX_RULE_PREDICATES).openapi({ description: `0 to ${MAX_RULE_PREDICATES} predicates (none: the rule holds for every event of its type)` }),
  })
  .openapi('EarningRuleConditionsInput', {
    description:
      'The cohort predicate language (types `attribute`, `tier`, `status`, `country`, `xp_balance`, `lifetime_xp`, ops as for cohorts) plus `property` (`key` = an event property; ops eq, neq, gt, gte, lt, lte (numbers), contains, in, exists, not_exists) and `cohort` (`op` eq, `value` a cohort id: the customer is a member). A predicate that does not fit is a 422 at `conditions.predicates.<i>.<key|op|value>`.',
  });

/** A positive decimal as a string with at most `decimals` fraction digits, up to `max`. */
function positiveDecimal(decimals: number, max: number, example: string) {
  const pattern = new RegExp(`^(?:0|[1-9]\\d{0,8})(?:\\.\\d{1,${decimals}})?$`);
  return z
    .string({ error: 'Must be a decimal number written as a string, e.g. "1.5"' })
    .regex(pattern, `Must be a decimal string with at most ${decimals} digits after the point, e.g. "${example}"`)
    .refine((value) => Number(value) > 0, 'Must be greater than 0')
    .refine((value) => Number(value) <= max, `Must be at most ${max}`)
    .openapi({ pattern: pattern.source, example });
}

export const ruleEffectInput = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('fixed'), amount: xpAmountInput('positive') }),
    z.strictObject({
      kind: z.literal('per_unit'),
      property: z.string().regex(PROPERTY_KEY_PATTERN, 'Must be an event property key').openapi({ example: 'total' }),
      xp_per_unit: positiveDecimal(RATE_DECIMALS, 1_000_000_000, '2'),
      unit: positiveDecimal(RATE_DECIMALS, 1_000_000_000, '1').optional().openapi({ description: 'Default "1"' }),
    }),
  ])
  .openapi('EarningRuleEffectInput', {
    description: '`fixed`: `amount` XP. `per_unit`: floor(property / unit x xp_per_unit), computed exactly in decimal; a property that is missing, not a number or gives 0 gives no XP.',
  });

const multiplierInput = z.strictObject({
  tier_id: resourceId,
  factor: positiveDecimal(FACTOR_DECIMALS, MAX_FACTOR, '2'),
});

const limitInput = z
  .strictObject({
    period: z.enum(limitPeriods),
    max_times: z.number().int().min(1).max(1_000_000_000).optional(),
    max_xp: xpAmountInput('positive').optional(),
  })
  .refine((limit) => limit.max_times !== undefined || limit.max_xp !== undefined, { message: 'Give max_times, max_xp or both', path: ['max_times'] });

export const ruleLimitsInput = z
  .strictObject({
    per_customer: z.array(limitInput).max(MAX_RULE_LIMITS).default([]).openapi({ description: `At most ${MAX_RULE_LIMITS}, one per period` }),
    total_xp_budget: xpAmountInput('positive').optional(),
  })
  .openapi('EarningRuleLimitsInput', { description: 'Periods `day`, `week` (from Monday), `month`, `year` in the tenant\'s time zone (program settings), or `lifetime`.' });

const ruleFields = {
  name: trimmedText(200).openapi({ example: 'Orders over $20' }),
  description: optionalText(2000, 'many'),
  event_type: eventType,
  status: z.enum(earningRuleStatuses),
  priority: z.number().int().min(-1_000_000).max(1_000_000).openapi({ description: 'Higher first' }),
  stackable: z.boolean().openapi({ description: 'false: when this rule gives XP, the rules below it do not apply' }),
  conditions: ruleConditionsInput,
  effect: ruleEffectInput,
  multipliers: z.array(multiplierInput).max(MAX_RULE_MULTIPLIERS).openapi({ description: `At most ${MAX_RULE_MULTIPLIERS}, one per tier of the tenant; the customer's tier's factor multiplies the effect (floor)` }),
  limits: ruleLimitsInput,
  starts_at: dateTime.datetime({ offset: true }).nullable(),
  ends_at: dateTime.datetime({ offset: true }).nullable(),
};

export const createEarningRuleBodySchema = z
  .strictObject({
    ...ruleFields,
    description: ruleFields.description.default(''),
    status: ruleFields.status.default('active'),
    priority: ruleFields.priority.default(0),
    stackable: ruleFields.stackable.default(true),
    conditions: ruleFields.conditions.default({ operator: 'and', predicates: [] }),
    multipliers: ruleFields.multipliers.default([]),
    limits: ruleFields.limits.default({ per_customer: [] }),
    starts_at: ruleFields.starts_at.optional(),
    ends_at: ruleFields.ends_at.optional(),
  })
  .openapi('CreateEarningRuleBody');

export type CreateEarningRuleInput = z.infer<typeof createEarningRuleBodySchema>;

/** PATCH: the fields sent replace the stored ones (`conditions`, `effect`, `multipliers`, `limits` each as a whole). */
export const updateEarningRuleBodySchema = z
  .strictObject({
    name: ruleFields.name.optional(),
    description: ruleFields.description.optional(),
    event_type: ruleFields.event_type.optional(),
    status: ruleFields.status.optional(),
    priority: ruleFields.priority.optional(),
    stackable: ruleFields.stackable.optional(),
    conditions: ruleFields.conditions.optional(),
    effect: ruleFields.effect.optional(),
    multipliers: ruleFields.multipliers.optional(),
    limits: ruleFields.limits.optional(),
    starts_at: ruleFields.starts_at.optional(),
    ends_at: ruleFields.ends_at.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one field')
  .openapi('UpdateEarningRuleBody', { minProperties: 1 });

export type UpdateEarningRuleInput = z.infer<typeof updateEarningRuleBodySchema>;

const predicateSchema = z.strictObject({ type: z.string(), key: z.string(), op: z.string(), value: z.string() }).openapi('EarningRulePredicate');

export const earningRuleEffectSchema = z
  .union([
    z.strictObject({ kind: z.literal('fixed'), amount: xpString }),
    z.strictObject({ kind: z.literal('per_unit'), property: z.string(), xp_per_unit: z.string(), unit: z.string() }),
  ])
  .openapi('EarningRuleEffect');

/** CONTRACT.md, Events and earning rules. */
export const earningRuleSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    event_type: z.string(),
    status: z.enum(earningRuleStatuses),
    priority: z.number().int(),
    stackable: z.boolean(),
    conditions: z.strictObject({ operator: z.enum(cohortOperators), predicates: z.array(predicateSchema) }),
    effect: earningRuleEffectSchema,
    multipliers: z.array(z.strictObject({ tier_id: z.string(), factor: z.string() })),
    limits: z.strictObject({
      per_customer: z.array(z.strictObject({ period: z.enum(limitPeriods), max_times: z.number().int().nullable(), max_xp: xpString.nullable() })),
      total_xp_budget: xpString.nullable(),
    }),
    starts_at: dateTime.nullable(),
    ends_at: dateTime.nullable(),
    counters: z.strictObject({
      times_applied: z.number().int().openapi({ description: 'Effects that gave XP' }),
      xp_awarded: xpString,
    }),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .openapi('EarningRule');

export type EarningRuleView = z.infer<typeof earningRuleSchema>;

export const earningRuleListQuery = pageQuery.extend({
  status: z.enum(earningRuleStatuses).optional(),
  event_type: eventType.optional(),
});

export type EarningRuleListQuery = z.infer<typeof earningRuleListQuery>;
