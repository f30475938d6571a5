import { attributeTypes, type AttributeType, type PredicateOperand, type PredicateStorage } from '../db/schema';
import type { CohortOp } from './cohort-ops';
import type { FieldPredicateType, PredicateType } from './cohort-ops';
import { attributeKeysOf, resolveRules, type CohortRules, type Comparison, type ResolvedPredicate } from './cohort-rules';

/**
 * Cohort rules compiled for the SQL evaluator of src/db/sql/cohort-evaluation.sql (rows of cohort_predicates). The
 * database, not this code, decides at every write which form of an attribute predicate applies:
 * the one of the key's current definition type, or none (the predicate never holds). So each
 * attribute predicate carries its operand under every attribute type it fits, and deleting or
 * re-defining a key needs no application code to keep memberships exact.
 */

export type CompiledPredicate = {
  subject: PredicateType;
  key: string;
  op: CohortOp;
  /** Attribute predicates: the operand per attribute type the predicate fits. */
  forms: Partial<Record<AttributeType, PredicateOperand>> | null;
  /** Field predicates: the operand (null when it no longer resolves: the predicate never holds). */
  operand: PredicateOperand | null;
};

const fieldStorage: Record<FieldPredicateType, PredicateStorage> = {
  tier: 'text',
  status: 'text',
  country: 'text',
  xp_balance: 'number',
  lifetime_xp: 'number',
};

function operandOf(storage: PredicateStorage, comparison: Comparison): PredicateOperand {
  const operand = 'operand' in comparison ? comparison.operand : null;
  return {
    storage,
    text: typeof operand === 'string' ? operand : null,
    number: typeof operand === 'number' ? operand : null,
    list: Array.isArray(operand) ? operand : null,
  };
}

function operandOfResolved(predicate: ResolvedPredicate | undefined): PredicateOperand | null {
  if (predicate === undefined || predicate.kind === 'never') return null;
  return operandOf(predicate.kind === 'attribute' ? predicate.storage : fieldStorage[predicate.field], predicate.comparison);
}

/** One compiled predicate per predicate of the (checked, stored) rules, in order. */
export function compileRules(rules: CohortRules): CompiledPredicate[] {
  const keys = attributeKeysOf(rules);
  // The rules resolved as if every key they name had type `type` (field predicates: any of these).
  const asType = attributeTypes.map((type) => ({ type, resolved: resolveRules(rules, { definitions: new Map(keys.map((key) => [key, { id: '', type }])) }) }));
  return rules.predicates.map(({ type: subject, key, op }, index) => {
    if (subject !== 'attribute') return { subject, key, op, forms: null, operand: operandOfResolved(asType[0]?.resolved.predicates[index]) };
    const forms = asType.flatMap(({ type, resolved }) => {
      const operand = operandOfResolved(resolved.predicates[index]);
      return operand ? [[type, operand] as const] : [];
    });
    return { subject, key, op, forms: Object.fromEntries(forms), operand: null };
  });
}
