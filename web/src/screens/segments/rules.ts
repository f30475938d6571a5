/**
 * The cohort rule editor's rules: which ops fit which predicate (the Worker's own table,
 * src/domain/cohort-ops.ts) and how a predicate's `value` string is written.
 */
import type { Schemas } from '../../api/types';
import type { FieldErrors } from '../../lib/forms';
import { attributeTypeOps, cohortOps, fieldPredicateOps, MAX_CONTAINS_LENGTH, MAX_IN_ITEMS, predicateTypes } from '../../../../src/domain/cohort-ops';
import { limits } from '../../lib/rules';

export type PredicateInput = Schemas['CohortPredicateInput'];
export type PredicateType = PredicateInput['type'];
export type Op = PredicateInput['op'];
export type AttributeType = Schemas['AttributeDefinition']['type'];
export type RulesInput = Schemas['CohortRulesInput'];

/** What the builder edits: every field a string; `value` of `in` is a comma-separated list. */
export type DraftPredicate = { type: PredicateType; key: string; op: Op; value: string };
export type DraftRules = { operator: RulesInput['operator']; predicates: DraftPredicate[] };

export { attributeTypeOps, fieldPredicateOps, predicateTypes };

export const opLabels: Record<Op, string> = {
  eq: 'is', neq: 'is not', gt: '>', gte: '≥', lt: '<', lte: '≤', contains: 'contains', in: 'is one of', exists: 'has a value', not_exists: 'has no value',
};

/** The ops of a predicate; an attribute whose definition is gone (a dead key) allows every op: it matches no one anyway. */
export function opsFor(predicate: Pick<DraftPredicate, 'type' | 'key'>, definitions: Map<string, AttributeType>): Op[] {
  if (predicate.type !== 'attribute') return [...fieldPredicateOps[predicate.type]];
  const type = definitions.get(predicate.key);
  return [...(type ? attributeTypeOps[type] : cohortOps)];
}

export type ValueKind = 'none' | 'text' | 'number' | 'boolean' | 'date' | 'datetime' | 'status' | 'tier' | 'country';

export function valueKind(predicate: DraftPredicate, definitions: Map<string, AttributeType>): ValueKind {
  if (predicate.op === 'exists' || predicate.op === 'not_exists') return 'none';
  switch (predicate.type) {
    case 'tier': case 'status': case 'country': return predicate.type;
    case 'xp_balance': case 'lifetime_xp': return 'number';
    case 'attribute': {
      const type = definitions.get(predicate.key);
      if (type === 'number' || type === 'boolean' || type === 'date' || type === 'datetime') return type;
      return 'text';
    }
  }
}

const listItems = (value: string): string[] => value.split(',').map((item) => item.trim()).filter(Boolean);

/** The API's form of a draft predicate (`in`: a JSON array string; exists/not_exists: no value). */
export function toInput(predicate: DraftPredicate, definitions: Map<string, AttributeType>): PredicateInput {
  const base = { type: predicate.type, op: predicate.op, ...(predicate.type === 'attribute' ? { key: predicate.key } : {}) };
  const kind = valueKind(predicate, definitions);
  if (kind === 'none') return base;
  if (predicate.op !== 'in') return { ...base, value: predicate.value.trim() };
  const items = listItems(predicate.value);
  return { ...base, value: JSON.stringify(kind === 'number' ? items.map(Number) : items) };
}

/** The draft form of a stored predicate. */
export function toDraft(predicate: Schemas['CohortPredicate']): DraftPredicate {
  const draft = { type: predicate.type as PredicateType, key: predicate.key, op: predicate.op as Op, value: predicate.value };
  if (draft.op !== 'in') return draft;
  try {
    const items: unknown = JSON.parse(predicate.value);
    return Array.isArray(items) ? { ...draft, value: items.map(String).join(', ') } : draft;
  } catch {
    return draft;
  }
}

/** A stored predicate in the input form (what the editor compares its draft with to know what is unsaved). */
export function storedInput(predicate: Schemas['CohortPredicate']): PredicateInput {
  const op = predicate.op as Op;
  return { type: predicate.type as PredicateType, op, ...(predicate.type === 'attribute' ? { key: predicate.key } : {}), ...(op === 'exists' || op === 'not_exists' ? {} : { value: predicate.value }) };
}

/** Client checks at the API's paths (`rules.predicates.<i>.<key|op|value>`). */
export function ruleProblems(rules: DraftRules, definitions: Map<string, AttributeType>): FieldErrors {
  const errors: FieldErrors = {};
  if (rules.predicates.length === 0) errors['rules.predicates'] = 'Add at least one condition.';
  if (rules.predicates.length > limits.cohortPredicates) errors['rules.predicates'] = `At most ${limits.cohortPredicates} conditions.`;
  rules.predicates.forEach((predicate, index) => {
    const at = `rules.predicates.${index}`;
    if (predicate.type === 'attribute' && !predicate.key) errors[`${at}.key`] = 'Pick an attribute.';
    if (!opsFor(predicate, definitions).includes(predicate.op)) errors[`${at}.op`] = 'This comparison does not fit.';
    const kind = valueKind(predicate, definitions);
    if (kind === 'none') return;
    const value = predicate.value.trim();
    if (!value) errors[`${at}.value`] = 'Required.';
    else if (predicate.op === 'in' && (listItems(value).length === 0 || listItems(value).length > MAX_IN_ITEMS)) errors[`${at}.value`] = `1 to ${MAX_IN_ITEMS} values, separated by commas.`;
    else if (predicate.op === 'contains' && value.length > MAX_CONTAINS_LENGTH) errors[`${at}.value`] = `At most ${MAX_CONTAINS_LENGTH} characters.`;
    else if (kind === 'number' && (predicate.op === 'in' ? listItems(value) : [value]).some((item) => !Number.isFinite(Number(item)))) errors[`${at}.value`] = 'A number.';
  });
  return errors;
}
