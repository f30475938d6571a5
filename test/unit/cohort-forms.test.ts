import { describe, expect, it } from 'vitest';
import { compileRules } from '../../src/domain/cohort-forms';
import type { CohortPredicate, CohortRules } from '../../src/domain/cohort-rules';

/** The compiled form of rules (pure): what the SQL evaluator of src/db/sql/cohort-evaluation.sql reads. */

const rules = (...predicates: CohortPredicate[]): CohortRules => ({ operator: 'and', predicates, version: 1 });
const text = (value: string) => ({ storage: 'text', text: value, number: null, list: null });
const number = (value: number) => ({ storage: 'number', text: null, number: value, list: null });

describe('compileRules', () => {
  it('keeps an attribute operand under every attribute type it fits, read as that type', () => {
    const [eq] = compileRules(rules({ type: 'attribute', key: 'size', op: 'eq', value: '5' }));
    expect(eq).toEqual({ subject: 'attribute', key: 'size', op: 'eq', operand: null, forms: { string: text('5'), number: number(5) } });
    const [when] = compileRules(rules({ type: 'attribute', key: 'seen', op: 'gte', value: '2024-01-01T02:00:00+02:00' }));
    // `gte` fits no string; only a datetime reads this value, normalized to UTC.
    expect(when?.forms).toEqual({ datetime: text('2024-01-01T00:00:00.000Z') });
  });

  it('gives exists every type, contains the string and list types, and boolean its 0/1 form', () => {
    const [exists, contains, flag] = compileRules(
      rules(
        { type: 'attribute', key: 'a', op: 'exists', value: '' },
        { type: 'attribute', key: 'b', op: 'contains', value: 'vip' },
        { type: 'attribute', key: 'c', op: 'eq', value: 'true' },
      ),
    );
    expect(Object.keys(exists?.forms ?? {}).sort()).toEqual(['boolean', 'date', 'datetime', 'number', 'string', 'string_list']);
    expect(contains?.forms).toEqual({ string: text('vip'), string_list: { storage: 'list', text: 'vip', number: null, list: null } });
    expect(flag?.forms).toEqual({ string: text('true'), boolean: number(1) });
  });

  it('gives a field predicate its one operand, XP as a number and `in` as a list', () => {
    const compiled = compileRules(
      rules(
        { type: 'xp_balance', key: '', op: 'gte', value: '300' },
        { type: 'country', key: '', op: 'in', value: '["de","FR"]' },
        { type: 'tier', key: '', op: 'not_exists', value: '' },
      ),
    );
    expect(compiled.map(({ operand, forms }) => ({ operand, forms }))).toEqual([
      { operand: number(300), forms: null },
      { operand: { storage: 'text', text: null, number: null, list: ['DE', 'FR'] }, forms: null },
      { operand: { storage: 'text', text: null, number: null, list: null }, forms: null },
    ]);
  });
});
