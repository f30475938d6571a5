import { ApiError, type FieldError } from '../lib/errors';
import { cohortOps, MAX_CONTAINS_LENGTH, MAX_IN_ITEMS, type CohortOp } from './cohort-ops';
import { resolvePredicate, type RuleContext } from './cohort-rules';
import { PROPERTY_KEY_PATTERN, type LimitPeriod, type RulePredicateType } from './earning-limits';

/**
 * Earning rules as stored and checked (CONTRACT.md, Events and earning rules; docs/RULES.md): the
 * shape of a rule's JSON columns, the save-time checks that make every stored rule evaluable, and
 * how a `property` predicate reads an event. How a rule gives XP is domain/earning-amounts.ts; how
 * an event is evaluated, data/earning-evaluation.ts.
 */

export type RulePredicate = { type: RulePredicateType; key: string; op: CohortOp; value: string };
export type RuleConditions = { operator: 'and' | 'or'; predicates: RulePredicate[] };
export type RuleEffect = { kind: 'fixed'; amount: number } | { kind: 'per_unit'; property: string; xp_per_unit: string; unit: string };
export type RuleMultiplier = { tier_id: string; factor: string };
export type RuleLimit = { period: LimitPeriod; max_times: number | null; max_xp: number | null };
export type RuleLimits = { per_customer: RuleLimit[] };

export type PropertyValue = string | number | boolean | string[];
export type EventProperties = Readonly<Record<string, PropertyValue>>;

/** What the save-time check reads of the tenant: its attribute definitions, tiers and cohorts. */
export type RuleCheckContext = RuleContext & { tierIds: ReadonlySet<string>; cohortIds: ReadonlySet<string> };

/** The parts of a rule the check reads, as they will be stored. */
export type CheckedRule = {
  conditions: RuleConditions;
  multipliers: RuleMultiplier[];
  limits: RuleLimits;
  startsAt: string | null;
  endsAt: string | null;
  /** The bound an empty window is reported at: the one the request moved (a PATCH of `starts_at` alone), else `ends_at`. */
  windowField?: 'starts_at' | 'ends_at';
};

const ORDERED_OPS: readonly CohortOp[] = ['gt', 'gte', 'lt', 'lte'];
const NUMBER = /^-?\d+(\.\d+)?$/;

type Problem = { field: 'key' | 'op' | 'value'; message: string } | undefined;

/** `in` lists of a property predicate: 1-100 strings or numbers. */
function inListProblem(value: string): string | undefined {
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    list = undefined;
  }
  const fits = Array.isArray(list) && list.length > 0 && list.length <= MAX_IN_ITEMS && list.every((item) => typeof item === 'string' || typeof item === 'number');
  return fits ? undefined : `Expected a JSON array of 1 to ${MAX_IN_ITEMS} strings or numbers`;
}

function propertyProblem({ key, op, value }: RulePredicate): Problem {
  if (!PROPERTY_KEY_PATTERN.test(key)) return { field: 'key', message: 'A property predicate needs the key of an event property' };
  if (!cohortOps.includes(op)) return { field: 'op', message: `Unknown op ${op}` };
  if (op === 'exists' || op === 'not_exists') return value === '' ? undefined : { field: 'value', message: `${op} takes no value` };
  if (value === '') return { field: 'value', message: `${op} needs a value` };
  if (ORDERED_OPS.includes(op) && !NUMBER.test(value)) return { field: 'value', message: `${op} compares numbers: expected a number such as "20"` };
  if (op === 'contains' && value.length > MAX_CONTAINS_LENGTH) return { field: 'value', message: `Expected at most ${MAX_CONTAINS_LENGTH} characters for contains` };
  if (op === 'in') {
    const message = inListProblem(value);
    if (message) return { field: 'value', message };
  }
  return undefined;
}

function cohortProblem({ key, op, value }: RulePredicate, ctx: RuleCheckContext): Problem {
  if (key !== '') return { field: 'key', message: 'A cohort predicate takes no key' };
  if (op !== 'eq' && op !== 'neq') return { field: 'op', message: 'A cohort predicate takes eq (a member) or neq (not a member)' };
  if (!ctx.cohortIds.has(value)) return { field: 'value', message: value === '' ? 'Expected a cohort id' : `No cohort ${value} in this tenant` };
  return undefined;
}

function predicateProblem(predicate: RulePredicate, ctx: RuleCheckContext): Problem {
  if (predicate.type === 'property') return propertyProblem(predicate);
  if (predicate.type === 'cohort') return cohortProblem(predicate, ctx);
  const resolution = resolvePredicate({ ...predicate, type: predicate.type }, ctx);
  return resolution.ok ? undefined : { field: resolution.field, message: resolution.message };
}

/** Save-time check of everything the request's schema cannot see: every failure, each at its field. */
export function checkRule(rule: CheckedRule, ctx: RuleCheckContext): void {
  const errors: FieldError[] = [];
  rule.conditions.predicates.forEach((predicate, index) => {
    const problem = predicateProblem(predicate, ctx);
    if (problem) errors.push({ path: `conditions.predicates.${index}.${problem.field}`, message: problem.message });
  });
  const tiers = new Set<string>();
  rule.multipliers.forEach(({ tier_id }, index) => {
    if (!ctx.tierIds.has(tier_id)) errors.push({ path: `multipliers.${index}.tier_id`, message: `No tier ${tier_id} in this tenant` });
    else if (tiers.has(tier_id)) errors.push({ path: `multipliers.${index}.tier_id`, message: 'One multiplier per tier' });
    tiers.add(tier_id);
  });
  const periods = new Set<LimitPeriod>();
  rule.limits.per_customer.forEach(({ period }, index) => {
    if (periods.has(period)) errors.push({ path: `limits.per_customer.${index}.period`, message: `One limit per period: ${period} is already limited` });
    periods.add(period);
  });
  if (isEmptyWindow(rule.startsAt, rule.endsAt)) errors.push(emptyWindowError(rule.windowField));
  if (errors.length > 0) throw invalidRule(errors);
}

/** A window whose end is not after its start holds no instant. */
export function isEmptyWindow(startsAt: string | null, endsAt: string | null): boolean {
  return startsAt !== null && endsAt !== null && Date.parse(endsAt) <= Date.parse(startsAt);
}

export function emptyWindowError(windowField: CheckedRule['windowField'] = 'ends_at'): FieldError {
  return windowField === 'starts_at' ? { path: 'starts_at', message: 'Must be before ends_at' } : { path: 'ends_at', message: 'Must be after starts_at' };
}

export function invalidRule(errors: FieldError[]): ApiError {
  return new ApiError('VALIDATION_FAILED', 'The earning rule is not valid', { errors });
}

function numberOperand(value: string): number {
  return NUMBER.test(value) ? Number(value) : Number.NaN;
}

/** Equality of a property and a predicate's string value, read as the property's own type. */
function equals(actual: string | number | boolean, value: string): boolean {
  if (typeof actual === 'number') return actual === numberOperand(value);
  if (typeof actual === 'boolean') return String(actual) === value;
  return actual === value;
}

/**
 * Whether a `property` predicate holds for the event's properties (decided in TypeScript: the event
 * is in the request). A missing property matches only `not_exists`; an op that does not fit the
 * property's type (`gt` on a string, `eq` on a list) does not match.
 */
export function propertyHolds({ key, op, value }: RulePredicate, properties: EventProperties): boolean {
  const actual = Object.hasOwn(properties, key) ? properties[key] : undefined;
  if (op === 'not_exists') return actual === undefined;
  if (actual === undefined) return false;
  switch (op) {
    case 'exists':
      return true;
    case 'eq':
      return !Array.isArray(actual) && equals(actual, value);
    case 'neq':
      return !Array.isArray(actual) && !equals(actual, value);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (typeof actual !== 'number') return false;
      const operand = numberOperand(value);
      return { gt: actual > operand, gte: actual >= operand, lt: actual < operand, lte: actual <= operand }[op];
    }
    case 'contains':
      return Array.isArray(actual) ? actual.includes(value) : typeof actual === 'string' && actual.includes(value);
    case 'in': {
      if (Array.isArray(actual) || typeof actual === 'boolean') return false;
      const list = JSON.parse(value) as (string | number)[];
      return list.some((item) => item === actual);
    }
  }
}
