/**
 * The earning-rule language's limits and vocabularies (CONTRACT.md, Events and earning rules;
 * docs/RULES.md). Pure and import-free at run time, so the CMS's rule editor (web/) reads them too.
 */

export const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_.]{0,63}$/;
/** Property keys: what a flat JSON object of a partner's backend names its fields. */
export const PROPERTY_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
export const MAX_EVENT_PROPERTIES = 64;
export const MAX_PROPERTY_STRING_LENGTH = 1000;
export const MAX_PROPERTY_LIST_ITEMS = 100;
export const MAX_PROPERTY_LIST_ITEM_LENGTH = 200;
export const MAX_REFERENCE_LENGTH = 255;
/** How far back and ahead of now `occurred_at` may be. */
export const MAX_EVENT_AGE_DAYS = 30;
export const MAX_EVENT_LEAD_MINUTES = 5;

/** Rule size (docs/decisions/0091-earning-rule-limits.md): they bound what one event's evaluation costs. */
export const MAX_RULE_PREDICATES = 20;
export const MAX_RULE_MULTIPLIERS = 20;
export const MAX_RULE_LIMITS = 5;
/** Active rules per event type: every one is evaluated in each event's batch. */
export const MAX_ACTIVE_RULES_PER_TYPE = 50;
export const MAX_RULES_PER_TENANT = 500;
/** Multiplier factors and per-unit rates: decimals with at most this many fraction digits, computed exactly. */
export const FACTOR_DECIMALS = 4;
export const MAX_FACTOR = 100;
export const RATE_DECIMALS = 6;

/** The cohort predicate types, plus the event's `property` and `cohort` membership. */
export const rulePredicateTypes = ['attribute', 'tier', 'status', 'country', 'xp_balance', 'lifetime_xp', 'property', 'cohort'] as const;
export type RulePredicateType = (typeof rulePredicateTypes)[number];

export const limitPeriods = ['day', 'week', 'month', 'year', 'lifetime'] as const;
export type LimitPeriod = (typeof limitPeriods)[number];

/** Why `simulate` says a rule did not apply (CONTRACT.md, plus `no_xp`: docs/decisions/0092-rule-evaluation.md). */
export const skipReasons = ['inactive', 'outside_window', 'conditions', 'no_xp', 'capped', 'stopped_by'] as const;
