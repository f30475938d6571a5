/**
 * An earning rule as the editor holds it (every field a string, as typed) and as the API takes it:
 * the draft of a stored rule, the request body of a draft, what a PATCH sends, and the client's
 * checks, each at the API's request path (so our check and the API's 422 show at the same field).
 */
import type { Schemas } from '../../api/types';
import { EVENT_TYPE_PATTERN, MAX_FACTOR, MAX_RULE_LIMITS, MAX_RULE_MULTIPLIERS, PROPERTY_KEY_PATTERN, type LimitPeriod } from '../../../../src/domain/earning-limits';
import type { FieldErrors } from '../../lib/forms';
import { blank, collect, limits, maxLength, required } from '../../lib/rules';
import { ruleConditions, ruleProblems, toDraft, toInput, type AnyPredicateType, type AttributeType, type DraftRules } from '../segments/rules';

export type EarningRule = Schemas['EarningRule'];
export type RuleStatus = EarningRule['status'];
export type RuleBody = Schemas['CreateEarningRuleBody'];

export type EffectDraft = { kind: 'fixed' | 'per_unit'; amount: string; property: string; xp_per_unit: string; unit: string };
export type MultiplierDraft = { tier_id: string; factor: string };
export type LimitDraft = { period: LimitPeriod; max_times: string; max_xp: string };
export type RuleDraft = {
  name: string;
  description: string;
  event_type: string;
  status: RuleStatus;
  priority: string;
  stackable: boolean;
  conditions: DraftRules<AnyPredicateType>;
  effect: EffectDraft;
  multipliers: MultiplierDraft[];
  limits: LimitDraft[];
  total_xp_budget: string;
  starts_at: string;
  ends_at: string;
};

export const newRuleDraft: RuleDraft = {
  name: '', description: '', event_type: '', status: 'active', priority: '0', stackable: true,
  conditions: { operator: 'and', predicates: [] },
  effect: { kind: 'fixed', amount: '', property: '', xp_per_unit: '', unit: '' },
  multipliers: [], limits: [], total_xp_budget: '', starts_at: '', ends_at: '',
};

export function draftOf(rule: EarningRule): RuleDraft {
  const effect = rule.effect.kind === 'fixed'
    ? { ...newRuleDraft.effect, amount: rule.effect.amount }
    : { ...newRuleDraft.effect, kind: 'per_unit' as const, property: rule.effect.property, xp_per_unit: rule.effect.xp_per_unit, unit: rule.effect.unit };
  return {
    name: rule.name,
    description: rule.description,
    event_type: rule.event_type,
    status: rule.status,
    priority: String(rule.priority),
    stackable: rule.stackable,
    conditions: { operator: rule.conditions.operator, predicates: rule.conditions.predicates.map((predicate) => toDraft<AnyPredicateType>(predicate)) },
    effect,
    multipliers: rule.multipliers.map((multiplier) => ({ ...multiplier })),
    limits: rule.limits.per_customer.map((limit) => ({ period: limit.period, max_times: limit.max_times === null ? '' : String(limit.max_times), max_xp: limit.max_xp ?? '' })),
    total_xp_budget: rule.limits.total_xp_budget ?? '',
    starts_at: rule.starts_at ?? '',
    ends_at: rule.ends_at ?? '',
  };
}

const filled = (value: string): string | undefined => (blank(value) ? undefined : value.trim());

function effectOf(effect: EffectDraft): RuleBody['effect'] {
  if (effect.kind === 'fixed') return { kind: 'fixed', amount: effect.amount.trim() };
  const unit = filled(effect.unit);
  return { kind: 'per_unit', property: effect.property.trim(), xp_per_unit: effect.xp_per_unit.trim(), ...(unit ? { unit } : {}) };
}

/** The whole rule as the API takes it: create sends it, edit sends the fields of it that changed. */
export function bodyOf(draft: RuleDraft, definitions: Map<string, AttributeType>): RuleBody {
  const budget = filled(draft.total_xp_budget);
  return {
    name: draft.name.trim(),
    description: draft.description,
    event_type: draft.event_type.trim(),
    status: draft.status,
    priority: Number(draft.priority),
    stackable: draft.stackable,
    conditions: { operator: draft.conditions.operator, predicates: draft.conditions.predicates.map((predicate) => toInput(predicate, definitions)) },
    effect: effectOf(draft.effect),
    multipliers: draft.multipliers.map((multiplier) => ({ tier_id: multiplier.tier_id, factor: multiplier.factor.trim() })),
    limits: {
      per_customer: draft.limits.map((limit) => {
        const maxTimes = filled(limit.max_times);
        const maxXp = filled(limit.max_xp);
        return { period: limit.period, ...(maxTimes ? { max_times: Number(maxTimes) } : {}), ...(maxXp ? { max_xp: maxXp } : {}) };
      }),
      ...(budget ? { total_xp_budget: budget } : {}),
    },
    starts_at: filled(draft.starts_at) ?? null,
    ends_at: filled(draft.ends_at) ?? null,
  };
}

/**
 * The fields of `body` that differ from `stored` (both made by bodyOf, so a value the editor only
 * re-wrote is no change): a PATCH replaces what it sends, and sends only what the person changed.
 */
export function changedFields(body: RuleBody, stored: RuleBody): Partial<RuleBody> {
  const changed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (JSON.stringify(value) !== JSON.stringify(stored[field as keyof RuleBody])) changed[field] = value;
  }
  return changed as Partial<RuleBody>;
}

/** ISO 8601 with a time zone (the API's `date-time` with offset), e.g. 2026-12-01T00:00:00Z or ...+01:00. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const isDateTime = (value: string): boolean => DATE_TIME.test(value.trim()) && !Number.isNaN(Date.parse(value.trim()));
const WHOLE = /^-?\d+$/;

function effectChecks(effect: EffectDraft): [string, boolean, string][] {
  if (effect.kind === 'fixed') return [['effect.amount', !limits.xpAmount.test(effect.amount.trim()), 'A whole number of XP from 1 to 1,000,000,000.']];
  return [
    ['effect.property', !PROPERTY_KEY_PATTERN.test(effect.property.trim()), "The key of the event's number property, e.g. total."],
    ['effect.xp_per_unit', !limits.rate.test(effect.xp_per_unit.trim()) || Number(effect.xp_per_unit) <= 0, 'A number above 0 with at most 6 decimals, e.g. 2 or 0.5.'],
    ['effect.unit', !blank(effect.unit) && (!limits.rate.test(effect.unit.trim()) || Number(effect.unit) <= 0), 'Empty for 1, or a number above 0 with at most 6 decimals.'],
  ];
}

function listChecks(draft: RuleDraft): [string, boolean, string][] {
  const checks: [string, boolean, string][] = [
    ['multipliers', draft.multipliers.length > MAX_RULE_MULTIPLIERS, `At most ${MAX_RULE_MULTIPLIERS} multipliers.`],
    ['limits.per_customer', draft.limits.length > MAX_RULE_LIMITS, `At most ${MAX_RULE_LIMITS} limits.`],
  ];
  draft.multipliers.forEach((multiplier, index) => {
    const factor = multiplier.factor.trim();
    checks.push(
      [`multipliers.${index}.tier_id`, multiplier.tier_id === '', 'Pick a tier.'],
      [`multipliers.${index}.tier_id`, draft.multipliers.findIndex((other) => other.tier_id === multiplier.tier_id) !== index, 'One multiplier per tier.'],
      [`multipliers.${index}.factor`, !limits.factor.test(factor) || Number(factor) <= 0 || Number(factor) > MAX_FACTOR, `A number above 0, at most ${MAX_FACTOR}, with at most 4 decimals (e.g. 2 or 1.5).`],
    );
  });
  draft.limits.forEach((limit, index) => {
    const at = `limits.per_customer.${index}`;
    const times = limit.max_times.trim();
    checks.push(
      [`${at}.period`, draft.limits.findIndex((other) => other.period === limit.period) !== index, 'One limit per period.'],
      [`${at}.max_times`, blank(times) && blank(limit.max_xp), 'Give max times, max XP or both.'],
      [`${at}.max_times`, !blank(times) && (!/^\d+$/.test(times) || Number(times) < 1 || Number(times) > limits.ruleMaxTimes), `Empty, or a whole number from 1 to ${limits.ruleMaxTimes.toLocaleString('en-US')}.`],
      [`${at}.max_xp`, !blank(limit.max_xp) && !limits.xpAmount.test(limit.max_xp.trim()), 'Empty, or a whole number of XP from 1 to 1,000,000,000.'],
    );
  });
  return checks;
}

/** Every check the API states, at its paths; the API checks again (tiers and cohorts it alone knows). */
export function draftProblems(draft: RuleDraft, definitions: Map<string, AttributeType>): FieldErrors {
  const priority = draft.priority.trim();
  const window = !blank(draft.starts_at) && !blank(draft.ends_at) && isDateTime(draft.starts_at) && isDateTime(draft.ends_at);
  return {
    ...collect([
      required('name', draft.name),
      maxLength('name', draft.name, limits.ruleName),
      maxLength('description', draft.description, limits.description),
      ['event_type', !EVENT_TYPE_PATTERN.test(draft.event_type.trim()), 'Lowercase letters, digits, "_" or ".", starting with a letter, e.g. order.paid.'],
      ['priority', !WHOLE.test(priority) || Math.abs(Number(priority)) > limits.rulePriority, `A whole number from -${limits.rulePriority.toLocaleString('en-US')} to ${limits.rulePriority.toLocaleString('en-US')}.`],
      ...effectChecks(draft.effect),
      ...listChecks(draft),
      ['limits.total_xp_budget', !blank(draft.total_xp_budget) && !limits.xpAmount.test(draft.total_xp_budget.trim()), 'Empty for no budget, or a whole number of XP from 1 to 1,000,000,000.'],
      ['starts_at', !blank(draft.starts_at) && !isDateTime(draft.starts_at), 'A date and time with its zone, e.g. 2026-12-01T00:00:00Z.'],
      ['ends_at', !blank(draft.ends_at) && !isDateTime(draft.ends_at), 'A date and time with its zone, e.g. 2026-12-31T23:59:59+01:00.'],
      ['ends_at', window && Date.parse(draft.ends_at) <= Date.parse(draft.starts_at), 'Must be after the start.'],
    ]),
    ...ruleProblems(draft.conditions, definitions, ruleConditions),
  };
}
