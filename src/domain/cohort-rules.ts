import { customerStatuses, type AttributeType, type PredicateStorage } from '../db/schema';
import { ApiError, type FieldError } from '../lib/errors';
import { parseBoolean, parseDate, parseDatetime, parseNumber, parseString, type Parsed } from './attributes';
import {
  MAX_CONTAINS_LENGTH,
  MAX_IN_ITEMS,
  attributeTypeOps,
  fieldPredicateOps,
  type CohortOp,
  type cohortOperators,
  type FieldPredicateType,
  type PredicateType,
} from './cohort-ops';
import { findCountry } from './countries';

/**
 * Cohort rules (CONTRACT.md, Attributes and cohorts): which ops fit which predicate, how a
 * predicate's `value` string is read, and the typed form that domain/cohort-forms.ts compiles for
 * the SQL evaluator (src/db/sql/cohort-evaluation.sql). Every op but `not_exists` needs a value to be present:
 * `neq`, `gt`, ... never match a customer who has no value, and a dead key never matches at all.
 */

/** As stored and rendered: `key` is '' except for attribute predicates, `value` '' for exists/not_exists. */
export type CohortPredicate = { type: PredicateType; key: string; op: CohortOp; value: string };
export type CohortRules = { operator: (typeof cohortOperators)[number]; predicates: CohortPredicate[]; version: 1 };

export type Operand = string | number;
export type Comparison =
  | { op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains'; operand: Operand }
  | { op: 'in'; operand: Operand[] }
  | { op: 'exists' }
  | { op: 'not_exists' };
/** Where an attribute's value lives (see domain/attributes.ts). */
export type AttributeStorage = PredicateStorage;
export type ResolvedPredicate =
  | { kind: 'never' }
  | { kind: 'attribute'; definitionId: string; storage: AttributeStorage; comparison: Comparison }
  | { kind: 'field'; field: FieldPredicateType; comparison: Comparison };
export type ResolvedRules = { operator: CohortRules['operator']; predicates: ResolvedPredicate[] };

export type DefinitionRef = { id: string; type: AttributeType };
export type RuleContext = {
  definitions: ReadonlyMap<string, DefinitionRef>;
  /** The tenant's tier ids, checked at save time only (a tier deleted later simply matches no one). */
  tierIds?: ReadonlySet<string>;
};

type ValueKind = 'string' | 'number' | 'boolean' | 'date' | 'datetime' | 'status' | 'country' | 'tier' | 'xp';
export type Resolution = { ok: true; predicate: ResolvedPredicate } | { ok: false; field: 'key' | 'op' | 'value'; message: string };

const attributeKinds: Record<AttributeType, { kind: ValueKind; storage: AttributeStorage }> = {
  string: { kind: 'string', storage: 'text' },
  number: { kind: 'number', storage: 'number' },
  boolean: { kind: 'boolean', storage: 'number' },
  date: { kind: 'date', storage: 'text' },
  datetime: { kind: 'datetime', storage: 'text' },
  string_list: { kind: 'string', storage: 'list' },
};

const fieldKinds: Record<FieldPredicateType, ValueKind> = {
  tier: 'tier',
  status: 'status',
  country: 'country',
  xp_balance: 'xp',
  lifetime_xp: 'xp',
};

function parseOperand(kind: ValueKind, raw: unknown, ctx: RuleContext): Parsed<Operand> {
  const fail = (message: string) => ({ ok: false, message }) as const;
  switch (kind) {
    case 'string':
    case 'date':
    case 'datetime':
      return { string: parseString, date: parseDate, datetime: parseDatetime }[kind](raw);
    case 'number':
      return parseNumber(raw);
    case 'boolean': {
      const parsed = parseBoolean(raw);
      return parsed.ok ? { ok: true, value: parsed.value ? 1 : 0 } : parsed;
    }
    case 'xp': {
      const value = typeof raw === 'string' && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
      return Number.isSafeInteger(value) ? { ok: true, value: value as number } : fail('Expected a whole XP amount');
    }
    case 'status':
      return customerStatuses.some((status) => status === raw) ? { ok: true, value: raw as string } : fail(`Expected one of ${customerStatuses.join(', ')}`);
    case 'country': {
      const country = typeof raw === 'string' ? findCountry(raw) : undefined;
      return country ? { ok: true, value: country.code } : fail('Expected an ISO 3166-1 alpha-2 country code');
    }
    case 'tier':
      if (typeof raw !== 'string' || raw === '') return fail('Expected a tier id');
      return !ctx.tierIds || ctx.tierIds.has(raw) ? { ok: true, value: raw } : fail(`No tier ${raw} in this tenant`);
  }
}

/** `in` takes a JSON array (as a string) of 1-100 values of the predicate's kind. */
function parseInList(kind: ValueKind, raw: string, ctx: RuleContext): Parsed<Operand[]> {
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    list = undefined;
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_IN_ITEMS) {
    return { ok: false, message: `Expected a JSON array of 1 to ${MAX_IN_ITEMS} values` };
  }
  const values: Operand[] = [];
  for (const [index, item] of list.entries()) {
    const parsed = parseOperand(kind, item, ctx);
    if (!parsed.ok) return { ok: false, message: `Item ${index}: ${parsed.message}` };
    values.push(parsed.value);
  }
  return { ok: true, value: values };
}

function compare(kind: ValueKind, op: CohortOp, value: string, ctx: RuleContext): Parsed<Comparison> {
  if (op === 'exists' || op === 'not_exists') {
    return value === '' ? { ok: true, value: { op } } : { ok: false, message: `${op} takes no value` };
  }
  if (op === 'in') {
    const list = parseInList(kind, value, ctx);
    return list.ok ? { ok: true, value: { op, operand: list.value } } : list;
  }
  const operand = parseOperand(kind, value, ctx);
  if (!operand.ok) return operand;
  if (op === 'contains' && String(operand.value).length > MAX_CONTAINS_LENGTH) {
    return { ok: false, message: `Expected at most ${MAX_CONTAINS_LENGTH} characters for contains` };
  }
  return { ok: true, value: { op, operand: operand.value } };
}

/** One predicate against the tenant's definitions and tiers (earning rules check theirs with it too). */
export function resolvePredicate(predicate: CohortPredicate, ctx: RuleContext): Resolution {
  const { type, key, op, value } = predicate;
  let kind: ValueKind;
  let allowed: readonly CohortOp[];
  let target: { kind: 'attribute'; definitionId: string; storage: AttributeStorage } | { kind: 'field'; field: FieldPredicateType };
  if (type === 'attribute') {
    const definition = ctx.definitions.get(key);
    if (!definition) return { ok: false, field: 'key', message: key === '' ? 'An attribute predicate needs a key' : `Attribute "${key}" is not defined` };
    ({ kind } = attributeKinds[definition.type]);
    allowed = attributeTypeOps[definition.type];
    target = { kind: 'attribute', definitionId: definition.id, storage: attributeKinds[definition.type].storage };
  } else {
    if (key !== '') return { ok: false, field: 'key', message: 'Only attribute predicates take a key' };
    kind = fieldKinds[type];
    allowed = fieldPredicateOps[type];
    target = { kind: 'field', field: type };
  }
  if (!allowed.includes(op)) {
    const subject = type === 'attribute' ? `attribute type ${ctx.definitions.get(key)?.type}` : `predicate type ${type}`;
    return { ok: false, field: 'op', message: `Op ${op} does not fit ${subject} (allowed: ${allowed.join(', ')})` };
  }
  const comparison = compare(kind, op, value, ctx);
  if (!comparison.ok) return { ok: false, field: 'value', message: comparison.message };
  return { ok: true, predicate: { ...target, comparison: comparison.value } };
}

/** Save-time check: every predicate must resolve; all failures are reported, each at its path. */
export function checkRules(rules: CohortRules, ctx: RuleContext): ResolvedRules {
  const errors: FieldError[] = [];
  const predicates = rules.predicates.map((predicate, index) => {
    const resolution = resolvePredicate(predicate, ctx);
    if (resolution.ok) return resolution.predicate;
    errors.push({ path: `rules.predicates.${index}.${resolution.field}`, message: resolution.message });
    return { kind: 'never' } as const;
  });
  if (errors.length > 0) throw new ApiError('VALIDATION_FAILED', 'The cohort rules are not valid', { errors });
  return { operator: rules.operator, predicates };
}

/**
 * Read-time resolution against today's definitions: a predicate that no longer resolves (its key
 * was deleted, or re-defined with a type its op or value does not fit) never matches.
 */
export function resolveRules(rules: CohortRules, ctx: RuleContext): ResolvedRules {
  return {
    operator: rules.operator,
    predicates: rules.predicates.map((predicate) => {
      const resolution = resolvePredicate(predicate, ctx);
      return resolution.ok ? resolution.predicate : { kind: 'never' };
    }),
  };
}

/** The `rules` column holds only what `checkRules` accepted and the service stored, so it is trusted. */
export function storedRules(column: unknown): CohortRules {
  return column as CohortRules;
}

/** Attribute keys named by the rules, in order of first appearance. */
export function attributeKeysOf(rules: CohortRules): string[] {
  return [...new Set(rules.predicates.filter((p) => p.type === 'attribute').map((p) => p.key))];
}
