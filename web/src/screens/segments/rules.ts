/**
 * The rule builder's rules, for both languages it edits: a cohort's rules and an earning rule's
 * conditions (the cohort language plus `property` and `cohort` predicates). Which ops fit which
 * predicate (the Worker's own tables, src/domain/cohort-ops.ts and earning-limits.ts) and how a
 * predicate's `value` string is written.
 */
import type { Schemas } from '../../api/types';
import type { FieldErrors } from '../../lib/forms';
import { attributeTypeOps, cohortOps, fieldPredicateOps, MAX_CONTAINS_LENGTH, MAX_IN_ITEMS, predicateTypes } from '../../../../src/domain/cohort-ops';
import { MAX_RULE_PREDICATES, PROPERTY_KEY_PATTERN, rulePredicateTypes } from '../../../../src/domain/earning-limits';
import { limits } from '../../lib/rules';

export type PredicateInput = Schemas['CohortPredicateInput'];
/** A cohort's predicate types. */
export type PredicateType = PredicateInput['type'];
/** An earning rule's predicate types: a cohort's plus `property` (the event's) and `cohort` (membership). */
export type AnyPredicateType = Schemas['EarningRulePredicateInput']['type'];
export type Op = PredicateInput['op'];
export type AttributeType = Schemas['AttributeDefinition']['type'];
export type RulesInput = Schemas['CohortRulesInput'];

/** What the builder edits: every field a string; `value` of `in` is a comma-separated list. */
export type DraftPredicate<T extends AnyPredicateType = PredicateType> = { type: T; key: string; op: Op; value: string };
export type DraftRules<T extends AnyPredicateType = PredicateType> = { operator: RulesInput['operator']; predicates: DraftPredicate<T>[] };
/** A predicate as the API takes it (`key` for attributes and properties, no `value` for exists/not_exists). */
export type InputPredicate<T extends AnyPredicateType> = { type: T; op: Op; key?: string; value?: string };
/** A predicate as the API answers it: every field a string. */
type StoredPredicate = { type: string; key: string; op: string; value: string };

/** A language the builder edits: its name, predicate types, the request path its errors come back under, its size, the condition "Add" adds. */
export type RuleLanguage<T extends AnyPredicateType> = { legend: string; types: readonly T[]; path: 'rules' | 'conditions'; minPredicates: number; maxPredicates: number; added: DraftPredicate<T> };
export const cohortRules: RuleLanguage<PredicateType> = {
  legend: 'Rules', types: predicateTypes, path: 'rules', minPredicates: 1, maxPredicates: limits.cohortPredicates, added: { type: 'status', key: '', op: 'eq', value: '' },
};
/** Earning rule conditions: none is allowed (every event of the rule's type). */
export const ruleConditions: RuleLanguage<AnyPredicateType> = {
  legend: 'Conditions', types: rulePredicateTypes, path: 'conditions', minPredicates: 0, maxPredicates: MAX_RULE_PREDICATES, added: { type: 'property', key: '', op: 'eq', value: '' },
};

export { attributeTypeOps, fieldPredicateOps, predicateTypes };

export const opLabels: Record<Op, string> = {
  eq: 'is', neq: 'is not', gt: '>', gte: '≥', lt: '<', lte: '≤', contains: 'contains', in: 'is one of', exists: 'has a value', not_exists: 'has no value',
};

const ORDERED_OPS: readonly Op[] = ['gt', 'gte', 'lt', 'lte'];
/** A number as the API reads a property predicate's operand (no exponent, no leading "+"). */
const NUMBER = /^-?\d+(\.\d+)?$/;

/** The ops of a predicate; an attribute whose definition is gone (a dead key) allows every op: it matches no one anyway. */
export function opsFor(predicate: Pick<DraftPredicate<AnyPredicateType>, 'type' | 'key'>, definitions: Map<string, AttributeType>): Op[] {
  switch (predicate.type) {
    case 'attribute': {
      const type = definitions.get(predicate.key);
      return [...(type ? attributeTypeOps[type] : cohortOps)];
    }
    // An event's properties have no declared type: every op, the value decides (CONTRACT.md).
    case 'property': return [...cohortOps];
    case 'cohort': return ['eq', 'neq'];
    default: return [...fieldPredicateOps[predicate.type]];
  }
}

export type ValueKind = 'none' | 'text' | 'number' | 'boolean' | 'date' | 'datetime' | 'status' | 'tier' | 'country' | 'cohort';

export function valueKind(predicate: DraftPredicate<AnyPredicateType>, definitions: Map<string, AttributeType>): ValueKind {
  if (predicate.op === 'exists' || predicate.op === 'not_exists') return 'none';
  switch (predicate.type) {
    case 'tier': case 'status': case 'country': case 'cohort': return predicate.type;
    case 'xp_balance': case 'lifetime_xp': return 'number';
    case 'property': return ORDERED_OPS.includes(predicate.op) ? 'number' : 'text';
    case 'attribute': {
      const type = definitions.get(predicate.key);
      if (type === 'number' || type === 'boolean' || type === 'date' || type === 'datetime') return type;
      return 'text';
    }
  }
}

const listItems = (value: string): string[] => value.split(',').map((item) => item.trim()).filter(Boolean);
/** Predicates that name what they compare: an attribute or an event property. */
const keyed = (type: string): boolean => type === 'attribute' || type === 'property';

/**
 * An item of a property's `in` list: the API compares it with the property's own type, so an item
 * that reads as a number is sent as one, and "quoted" keeps digits as text (an order id "1042").
 */
function propertyItem(item: string): string | number {
  const quoted = /^"(.*)"$/.exec(item);
  if (quoted) return quoted[1] ?? '';
  return NUMBER.test(item) ? Number(item) : item;
}

/** The API's form of a draft predicate (`in`: a JSON array string; exists/not_exists: no value). */
export function toInput<T extends AnyPredicateType>(predicate: DraftPredicate<T>, definitions: Map<string, AttributeType>): InputPredicate<T> {
  const base = { type: predicate.type, op: predicate.op, ...(keyed(predicate.type) ? { key: predicate.key.trim() } : {}) };
  const kind = valueKind(predicate, definitions);
  if (kind === 'none') return base;
  if (predicate.op !== 'in') return { ...base, value: predicate.value.trim() };
  const items = listItems(predicate.value);
  if (predicate.type === 'property') return { ...base, value: JSON.stringify(items.map(propertyItem)) };
  return { ...base, value: JSON.stringify(kind === 'number' ? items.map(Number) : items) };
}

/** How an `in` item is shown: a property's text that would read as a number is "quoted" (see propertyItem). */
const listedItem = (type: string) => (item: unknown): string => (type === 'property' && typeof item === 'string' && NUMBER.test(item) ? `"${item}"` : String(item));

/** The draft form of a stored predicate (of the language whose types `T` are). */
export function toDraft<T extends AnyPredicateType = PredicateType>(predicate: StoredPredicate): DraftPredicate<T> {
  const draft = { type: predicate.type as T, key: predicate.key, op: predicate.op as Op, value: predicate.value };
  if (draft.op !== 'in') return draft;
  try {
    const items: unknown = JSON.parse(predicate.value);
    return Array.isArray(items) ? { ...draft, value: items.map(listedItem(predicate.type)).join(', ') } : draft;
  } catch {
    return draft;
  }
}

/** A stored predicate in the input form (what the editor compares its draft with to know what is unsaved). */
export function storedInput<T extends AnyPredicateType = PredicateType>(predicate: StoredPredicate): InputPredicate<T> {
  const op = predicate.op as Op;
  return { type: predicate.type as T, op, ...(keyed(predicate.type) ? { key: predicate.key } : {}), ...(op === 'exists' || op === 'not_exists' ? {} : { value: predicate.value }) };
}

/** Client checks at the API's paths (`<rules|conditions>.predicates.<i>.<key|op|value>`). */
export function ruleProblems(rules: DraftRules<AnyPredicateType>, definitions: Map<string, AttributeType>, language: RuleLanguage<AnyPredicateType>): FieldErrors {
  const errors: FieldErrors = {};
  const path = `${language.path}.predicates`;
  if (rules.predicates.length < language.minPredicates) errors[path] = 'Add at least one condition.';
  if (rules.predicates.length > language.maxPredicates) errors[path] = `At most ${language.maxPredicates} conditions.`;
  rules.predicates.forEach((predicate, index) => {
    const at = `${path}.${index}`;
    if (predicate.type === 'attribute' && !predicate.key) errors[`${at}.key`] = 'Pick an attribute.';
    if (predicate.type === 'property' && !PROPERTY_KEY_PATTERN.test(predicate.key.trim())) errors[`${at}.key`] = 'An event property\'s key, e.g. total.';
    if (!opsFor(predicate, definitions).includes(predicate.op)) errors[`${at}.op`] = 'This comparison does not fit.';
    const kind = valueKind(predicate, definitions);
    if (kind === 'none') return;
    const value = predicate.value.trim();
    if (!value) errors[`${at}.value`] = kind === 'cohort' ? 'Pick a cohort.' : 'Required.';
    else if (predicate.op === 'in' && (listItems(value).length === 0 || listItems(value).length > MAX_IN_ITEMS)) errors[`${at}.value`] = `1 to ${MAX_IN_ITEMS} values, separated by commas.`;
    else if (predicate.op === 'contains' && value.length > MAX_CONTAINS_LENGTH) errors[`${at}.value`] = `At most ${MAX_CONTAINS_LENGTH} characters.`;
    else if (predicate.type === 'property' && kind === 'number' && !NUMBER.test(value)) errors[`${at}.value`] = 'A number, e.g. 20 or 19.99.';
    else if (kind === 'number' && (predicate.op === 'in' ? listItems(value) : [value]).some((item) => !Number.isFinite(Number(item)))) errors[`${at}.value`] = 'A number.';
  });
  return errors;
}
