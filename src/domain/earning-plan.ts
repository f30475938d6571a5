import type { EarningRuleStatus } from '../db/schema';
import { compileRules, type CompiledPredicate } from './cohort-forms';
import type { CohortPredicate } from './cohort-rules';
import { baseAmount, scaledFactor } from './earning-amounts';
import { propertyHolds, type EventProperties, type RuleConditions, type RuleEffect, type RuleLimit, type RuleMultiplier } from './earning-rules';
import { periodKeys } from './program-settings';

/**
 * An event's evaluation plan (docs/RULES.md, "How an event is evaluated"): what can be decided
 * from the event alone is decided here (the rule's status and window, its `property` predicates, the
 * effect's base amount, the periods its limits count in); what depends on the customer and on the
 * counters at that instant is left to SQL inside the event's batch (data/earning-evaluation.ts),
 * which reads this plan as one JSON document.
 */

/** A rule as the per-isolate cache holds it: parsed and compiled once per rule version. */
export type CompiledRule = {
  id: string;
  name: string;
  eventType: string;
  status: EarningRuleStatus;
  priority: number;
  stackable: boolean;
  conditions: RuleConditions;
  /** Per predicate of `conditions`: the cohort-language ones compiled for SQL (null for property and cohort predicates). */
  compiled: (CompiledPredicate | null)[];
  effect: RuleEffect;
  multipliers: { tierId: string; factor: number }[];
  limits: RuleLimit[];
  startsAt: number | null;
  endsAt: number | null;
};

/** The stored rule's parts a plan reads. */
export type StoredRuleParts = Omit<CompiledRule, 'compiled' | 'multipliers' | 'startsAt' | 'endsAt'> & {
  multipliers: RuleMultiplier[];
  startsAt: string | null;
  endsAt: string | null;
};

export function compileRule(rule: StoredRuleParts): CompiledRule {
  const cohortLanguage = rule.conditions.predicates.flatMap((predicate, index) =>
    predicate.type === 'property' || predicate.type === 'cohort' ? [] : [{ index, predicate: { ...predicate, type: predicate.type } as CohortPredicate }],
  );
  const compiledByIndex = new Map<number, CompiledPredicate>();
  const compiled = compileRules({ operator: rule.conditions.operator, predicates: cohortLanguage.map((entry) => entry.predicate), version: 1 });
  cohortLanguage.forEach((entry, i) => {
    const form = compiled[i];
    if (form) compiledByIndex.set(entry.index, form);
  });
  return {
    ...rule,
    compiled: rule.conditions.predicates.map((_predicate, index) => compiledByIndex.get(index) ?? null),
    multipliers: rule.multipliers.map(({ tier_id, factor }) => ({ tierId: tier_id, factor: scaledFactor(factor) })),
    startsAt: rule.startsAt === null ? null : Date.parse(rule.startsAt),
    endsAt: rule.endsAt === null ? null : Date.parse(rule.endsAt),
  };
}

/** Evaluation order: priority, highest first; then the older rule; then the id (CONTRACT.md). */
export function inEvaluationOrder(rules: readonly (CompiledRule & { createdAt: string })[]): CompiledRule[] {
  return [...rules].sort((a, b) => b.priority - a.priority || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export type PlannedEvent = { properties: EventProperties; occurredAt: Date; timezone: string };

/** A rule the plan leaves out, and why (`simulate` reports it). */
export type Skipped = { rule: CompiledRule; reason: 'inactive' | 'outside_window' };

/** The JSON document the evaluation SQL reads: one entry per rule it evaluates, in order. */
export type PlanDocument = {
  rules: {
    id: string;
    name: string;
    operator: 'and' | 'or';
    stackable: 0 | 1;
    base: number;
    multipliers: { tier: string; factor: number }[];
    limits: { key: string; max_times: number | null; max_xp: number | null }[];
  }[];
  predicates: { rule: number; subject: string; key: string; op: string; forms: CompiledPredicate['forms']; operand: unknown; holds: 0 | 1 | null }[];
};

export type Plan = { document: PlanDocument; evaluated: CompiledRule[]; skipped: Skipped[] };

function skipReason(rule: CompiledRule, at: number): Skipped['reason'] | undefined {
  if (rule.status !== 'active') return 'inactive';
  if ((rule.startsAt !== null && at < rule.startsAt) || (rule.endsAt !== null && at >= rule.endsAt)) return 'outside_window';
  return undefined;
}

/**
 * The plan for an event and the rules of its type (in evaluation order).
 */
export function planEvaluation(rules: readonly CompiledRule[], event: PlannedEvent): Plan {
  const at = event.occurredAt.getTime();
  const keyOf = periodKeys(event.occurredAt, event.timezone);
  const document: PlanDocument = { rules: [], predicates: [] };
  const evaluated: CompiledRule[] = [];
  const skipped: Skipped[] = [];
  for (const rule of rules) {
    const reason = skipReason(rule, at);
    if (reason) {
      skipped.push({ rule, reason });
      continue;
    }
    const position = evaluated.length;
    evaluated.push(rule);
    document.rules.push({
      id: rule.id,
      name: rule.name,
      operator: rule.conditions.operator,
      stackable: rule.stackable ? 1 : 0,
      base: baseAmount(rule.effect, event.properties),
      multipliers: rule.multipliers.map(({ tierId, factor }) => ({ tier: tierId, factor })),
      limits: rule.limits.map((limit) => ({ key: keyOf(limit.period), max_times: limit.max_times, max_xp: limit.max_xp })),
    });
    rule.conditions.predicates.forEach((predicate, index) => {
      const compiled = rule.compiled[index];
      const base = { rule: position, subject: predicate.type, key: predicate.key, op: predicate.op };
      if (predicate.type === 'property') document.predicates.push({ ...base, forms: null, operand: null, holds: propertyHolds(predicate, event.properties) ? 1 : 0 });
      else if (predicate.type === 'cohort') document.predicates.push({ ...base, forms: null, operand: { storage: 'text', text: predicate.value }, holds: null });
      else document.predicates.push({ ...base, forms: compiled?.forms ?? null, operand: compiled?.operand ?? null, holds: null });
    });
  }
  return { document, evaluated, skipped };
}
