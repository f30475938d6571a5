import { describe, expect, it } from 'vitest';
import { jsonRowTexts } from '../../src/data/json-rows';

/** The JSON texts a set-based statement binds (src/data/json-rows.ts): every row once, in order, each text under D1's string limit. */

describe('jsonRowTexts', () => {
  it('is one JSON array of the rows, values kept as JSON types (text stays text, null stays null)', () => {
    const rows = [['a', 1, null], ['{"b":2}', 0.30000000000000004, '41']];
    const texts = jsonRowTexts(rows);
    expect(texts).toHaveLength(1);
    expect(JSON.parse(texts[0]!)).toEqual(rows);
  });

  it('is none for no rows', () => {
    expect(jsonRowTexts([])).toEqual([]);
  });

  it('splits rows that would pass 600,000 characters into more texts, every row once and in order', () => {
    const rows = Array.from({ length: 13 }, (_, index) => [`row-${index}`.padEnd(100_000, '.')]);
    const texts = jsonRowTexts(rows);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.every((text) => text.length <= 600_000)).toBe(true);
    expect(texts.flatMap((text) => JSON.parse(text) as string[][])).toEqual(rows);
  });

  it('refuses a single row longer than a text may be', () => {
    expect(() => jsonRowTexts([['x'.repeat(600_000)]])).toThrow(/one row is 600004 characters of JSON/);
  });
});
