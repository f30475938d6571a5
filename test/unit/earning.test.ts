import { describe, expect, it } from 'vitest';
import { baseAmount, scaledFactor } from '../../src/domain/earning-amounts';
import { compileRule, inEvaluationOrder, planEvaluation, type CompiledRule } from '../../src/domain/earning-plan';
import { propertyHolds, type RulePredicate } from '../../src/domain/earning-rules';
import { isIsoDurationInRange, isTimeZone, nominalSeconds, periodKeys } from '../../src/domain/program-settings';

const perUnit = (xp_per_unit: string, unit = '1') => ({ kind: 'per_unit' as const, property: 'total', xp_per_unit, unit });

describe('effect amounts are exact decimals', () => {
  it.each([
    [45.99, '2', '1', 91],
    [0.29, '100', '1', 29],
    [3, '0.1', '1', 0],
    [10, '1', '0.5', 20],
    [0.1 + 0.2, '10', '1', 3],
    [1e21, '1', '1', 1_000_000_000],
    [1.5e-7, '1000000000', '1', 150],
    [-5, '2', '1', 0],
  ])('%s x %s per %s = %s', (total, rate, unit, expected) => {
    expect(baseAmount(perUnit(rate, unit), { total })).toBe(expected);
  });

  it('a missing or non-number property gives 0; fixed gives its amount', () => {
    expect(baseAmount(perUnit('2'), {})).toBe(0);
    expect(baseAmount(perUnit('2'), { total: '45' })).toBe(0);
    expect(baseAmount({ kind: 'fixed', amount: 7 }, {})).toBe(7);
  });

  it('factors are integers of 1/10000', () => {
    expect([scaledFactor('1.5'), scaledFactor('2'), scaledFactor('0.0001'), scaledFactor('100')]).toEqual([15000, 20000, 1, 1_000_000]);
  });
});

describe('property predicates', () => {
  const holds = (op: RulePredicate['op'], value: string, properties: Record<string, string | number | boolean | string[]>) =>
    propertyHolds({ type: 'property', key: 'p', op, value }, properties);

  it('compare as the property type', () => {
    expect(holds('eq', '20', { p: 20 })).toBe(true);
    expect(holds('eq', '20', { p: '20' })).toBe(true);
    expect(holds('eq', 'true', { p: true })).toBe(true);
    expect(holds('neq', 'true', { p: false })).toBe(true);
    expect(holds('gt', '20', { p: 20.5 })).toBe(true);
    expect(holds('gt', '20', { p: '30' })).toBe(false);
    expect(holds('lte', '20', { p: 20 })).toBe(true);
    expect(holds('contains', 'sku_2', { p: ['sku_1', 'sku_2'] })).toBe(true);
    expect(holds('contains', 'bc', { p: 'abcd' })).toBe(true);
    expect(holds('in', '["a", 2]', { p: 2 })).toBe(true);
    expect(holds('in', '["a", 2]', { p: '2' })).toBe(false);
    expect(holds('eq', 'a', { p: ['a'] })).toBe(false);
  });

  it('a missing property matches only not_exists', () => {
    for (const op of ['eq', 'neq', 'gt', 'contains', 'in', 'exists'] as const) expect(holds(op, op === 'in' ? '["x"]' : 'x', {})).toBe(false);
    expect(holds('not_exists', '', {})).toBe(true);
    expect(holds('not_exists', '', { p: 1 })).toBe(false);
  });
});

describe('the tenant calendar', () => {
  const keys = (iso: string, zone: string) => {
    const of = periodKeys(new Date(iso), zone);
    return (['day', 'week', 'month', 'year', 'lifetime'] as const).map(of);
  };

  it('keys periods in the time zone, weeks from Monday', () => {
    // 2027-01-01 02:00 UTC is still Thursday 31 December 2026 in New York.
    expect(keys('2027-01-01T02:00:00Z', 'America/New_York')).toEqual(['day:2026-12-31', 'week:2026-12-28', 'month:2026-12', 'year:2026', 'lifetime']);
    expect(keys('2027-01-01T02:00:00Z', 'UTC')).toEqual(['day:2027-01-01', 'week:2026-12-28', 'month:2027-01', 'year:2027', 'lifetime']);
    // A Sunday belongs to the week of the Monday before it.
    expect(keys('2026-11-29T12:00:00Z', 'Asia/Tokyo')[1]).toBe('week:2026-11-23');
    expect(keys('2026-11-29T15:30:00Z', 'Asia/Tokyo')[1]).toBe('week:2026-11-30');
  });

  it('knows IANA zones and ISO durations from PT10S to P10Y', () => {
    expect([isTimeZone('Europe/Paris'), isTimeZone('UTC'), isTimeZone('+02:00'), isTimeZone('Mars/Olympus')]).toEqual([true, true, false, false]);
    expect(nominalSeconds('P1DT2H')).toBe(93_600);
    expect(['PT10S', 'P10Y', 'P30D', 'PT1H'].map(isIsoDurationInRange)).toEqual([true, true, true, true]);
    expect(['PT9S', 'P11Y', 'P', 'PT', '30D', 'P1.5D'].map(isIsoDurationInRange)).toEqual([false, false, false, false, false, false]);
  });
});

describe('evaluation plans', () => {
  const rule = (id: string, priority: number, createdAt: string, fields: Partial<Parameters<typeof compileRule>[0]> = {}) => ({
    ...compileRule({
      id,
      name: id,
      eventType: 'order.paid',
      status: 'active',
      priority,
      stackable: true,
      conditions: { operator: 'and', predicates: [] },
      effect: { kind: 'fixed', amount: 10 },
      multipliers: [],
      limits: [],
      startsAt: null,
      endsAt: null,
      ...fields,
    }),
    createdAt,
  });

  it('orders by priority, then age, then id', () => {
    const ordered = inEvaluationOrder([rule('b', 1, '2026-01-02'), rule('c', 5, '2026-01-03'), rule('a', 1, '2026-01-02'), rule('d', 1, '2026-01-01')]);
    expect(ordered.map((r) => r.id)).toEqual(['c', 'd', 'a', 'b']);
  });

  it('skips inactive rules and rules outside their window, and decides property predicates', () => {
    const rules: CompiledRule[] = [
      rule('paused', 0, 'x', { status: 'paused' }),
      rule('later', 0, 'x', { startsAt: '2026-12-01T00:00:00.000Z' }),
      rule('ended', 0, 'x', { endsAt: '2026-11-26T12:00:00.000Z' }),
      rule('big', 0, 'x', { conditions: { operator: 'and', predicates: [{ type: 'property', key: 'total', op: 'gt', value: '20' }] }, limits: [{ period: 'day', max_times: 5, max_xp: null }] }),
    ];
    const plan = planEvaluation(rules, { properties: { total: 25 }, occurredAt: new Date('2026-11-26T12:00:00Z'), timezone: 'Asia/Tokyo' });
    expect(plan.skipped.map((s) => [s.rule.id, s.reason])).toEqual([['paused', 'inactive'], ['later', 'outside_window'], ['ended', 'outside_window']]);
    expect(plan.document.rules.map((r) => [r.id, r.base, r.limits])).toEqual([['big', 10, [{ key: 'day:2026-11-26', max_times: 5, max_xp: null }]]]);
    expect(plan.document.predicates).toEqual([{ rule: 0, subject: 'property', key: 'total', op: 'gt', forms: null, operand: null, holds: 1 }]);
  });
});
