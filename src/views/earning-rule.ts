import type { EarningRule } from '../db/schema';
import type { RuleConditions, RuleEffect, RuleLimits, RuleMultiplier } from '../domain/earning-rules';
import type { EarningRuleView } from '../schemas/earning-rule';

/** The rule's JSON columns hold what the service checked before storing (services/earning-rules.ts). */
export function toEarningRuleView(rule: EarningRule): EarningRuleView {
  const effect = rule.effect as RuleEffect;
  const limits = rule.limits as RuleLimits;
  return {
    id: rule.id,
    name: rule.name,
    description: rule.description,
    event_type: rule.eventType,
    status: rule.status,
    priority: rule.priority,
    stackable: rule.stackable,
    conditions: rule.conditions as RuleConditions,
    effect:
      effect.kind === 'fixed'
        ? { kind: 'fixed', amount: String(effect.amount) }
        : { kind: 'per_unit', property: effect.property, xp_per_unit: effect.xp_per_unit, unit: effect.unit },
    multipliers: rule.multipliers as RuleMultiplier[],
    limits: {
      per_customer: limits.per_customer.map((limit) => ({ period: limit.period, max_times: limit.max_times, max_xp: limit.max_xp === null ? null : String(limit.max_xp) })),
      total_xp_budget: rule.totalXpBudget === null ? null : String(rule.totalXpBudget),
    },
    starts_at: rule.startsAt,
    ends_at: rule.endsAt,
    counters: { times_applied: rule.timesApplied, xp_awarded: String(rule.xpAwarded) },
    created_at: rule.createdAt,
    updated_at: rule.updatedAt,
  };
}
