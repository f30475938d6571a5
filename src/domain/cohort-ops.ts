import type { AttributeType } from '../db/schema';

/**
 * The cohort rule language (CONTRACT.md, Attributes and cohorts): operators, predicate types, which
 * comparison ops fit which predicate, and the rule-size limits. Pure and import-free at run time,
 * so the CMS (web/) builds its rule editor from this very table.
 */

/** Comparison ops of cohort rule predicates. */
export const cohortOps = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists', 'not_exists'] as const;

export type CohortOp = (typeof cohortOps)[number];

export const cohortOperators = ['and', 'or'] as const;
export const predicateTypes = ['attribute', 'tier', 'status', 'country', 'xp_balance', 'lifetime_xp'] as const;

export type PredicateType = (typeof predicateTypes)[number];
export type FieldPredicateType = Exclude<PredicateType, 'attribute'>;

const ordered = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const;
const presence = ['exists', 'not_exists'] as const;

export const attributeTypeOps: Record<AttributeType, readonly CohortOp[]> = {
  string: ['eq', 'neq', 'contains', 'in', ...presence],
  number: [...ordered, 'in', ...presence],
  boolean: ['eq', 'neq', ...presence],
  date: [...ordered, ...presence],
  datetime: [...ordered, ...presence],
  string_list: ['contains', ...presence],
};

export const fieldPredicateOps: Record<FieldPredicateType, readonly CohortOp[]> = {
  tier: ['eq', 'neq', 'in', ...presence],
  status: ['eq', 'neq', 'in'],
  country: ['eq', 'neq', 'in', ...presence],
  xp_balance: ordered,
  lifetime_xp: ordered,
};

/** Rule-size limits (docs/decisions/0048-cohort-rule-limits.md): they bound what one evaluation costs. */
export const MAX_IN_ITEMS = 100;
export const MAX_CONTAINS_LENGTH = 100;
