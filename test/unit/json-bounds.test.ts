import { describe, expect, it } from 'vitest';
import { freeFormJsonProblem, jsonDepth, MAX_JSON_BYTES, MAX_JSON_DEPTH, TOO_DEEP, TOO_LARGE, tooDeepField } from '../../src/lib/json-bounds';

/** `levels` nested arrays around `inner`, built without recursion. */
function nestedValue(levels: number, inner: unknown = null): unknown {
  let value: unknown = inner;
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
}

const nestedText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('jsonDepth', () => {
  it('counts levels of objects and arrays: a scalar 0, {} 1, the deepest branch wins', () => {
    expect([null, 1, 'x', true].map((value) => jsonDepth(value))).toEqual([0, 0, 0, 0]);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth([])).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
    expect(jsonDepth([[], [[[]]], {}])).toBe(4);
  });

  it('walks 100,000 levels without recursion (no stack overflow), and stops counting past the limit', () => {
    const deep = JSON.parse(nestedText(100_000)) as unknown;
    expect(jsonDepth(deep)).toBe(100_000);
    expect(jsonDepth(deep, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
  });
});

describe('freeFormJsonProblem', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    expect(freeFormJsonProblem(nestedValue(MAX_JSON_DEPTH))).toBeUndefined();
    expect(freeFormJsonProblem(nestedValue(MAX_JSON_DEPTH + 1))).toBe(TOO_DEEP);
    expect(freeFormJsonProblem(JSON.parse(nestedText(30_000)))).toBe(TOO_DEEP);
  });

  it(`accepts exactly ${MAX_JSON_BYTES} bytes of compact JSON and refuses one more, counting UTF-8 bytes, not characters`, () => {
    const sized = (bytes: number) => ({ note: 'x'.repeat(bytes - JSON.stringify({ note: '' }).length) });
    expect(freeFormJsonProblem(sized(MAX_JSON_BYTES))).toBeUndefined();
    expect(freeFormJsonProblem(sized(MAX_JSON_BYTES + 1))).toBe(TOO_LARGE);
    // 'é' is one character and two bytes: under the limit in characters, over it in bytes.
    const accents = { note: 'é'.repeat(MAX_JSON_BYTES / 2) };
    expect(JSON.stringify(accents).length).toBeLessThan(MAX_JSON_BYTES);
    expect(freeFormJsonProblem(accents)).toBe(TOO_LARGE);
  });

  it('accepts every JSON kind, null included', () => {
    for (const value of [null, 0, -1.5, '', 'text', false, [], {}, { order_id: 'o-1', items: [1, 2] }]) expect(freeFormJsonProblem(value)).toBeUndefined();
  });
});

describe('tooDeepField', () => {
  it('names the top-level field under which the text nests past the limit (levels below the body)', () => {
    expect(tooDeepField(`{"a":1,"metadata":${nestedText(3)}}`, 3)).toBeUndefined();
    expect(tooDeepField(`{"a":1,"metadata":${nestedText(4)}}`, 3)).toBe('metadata');
    expect(tooDeepField(`{"rules":{"predicates":[${nestedText(40)}]},"name":"x"}`, 32)).toBe('rules');
    expect(tooDeepField(`{"a" : {"b": [1, {"c": ${nestedText(40)}}]}}`, 32)).toBe('a');
  });

  it("names '' when the body is not an object", () => {
    expect(tooDeepField(nestedText(40), 32)).toBe('');
  });

  it('does not count brackets inside strings, escaped quotes included, and decodes an escaped field name', () => {
    expect(tooDeepField(JSON.stringify({ notes: '['.repeat(100), other: '\\"[[[[[[' }), 3)).toBeUndefined();
    expect(tooDeepField(`{"not\\"es":"\\"[[[[","x":"\\\\","m\\u0065ta":${nestedText(5)}}`, 3)).toBe('meta');
  });

  it('scans 30,000 levels (the most a 64 KiB body holds) without parsing, and counts a text that is not JSON', () => {
    expect(tooDeepField(`{"metadata":${nestedText(30_000)}}`, 32)).toBe('metadata');
    expect(tooDeepField(`{"metadata":${'['.repeat(40)}`, 32)).toBe('metadata');
    expect(tooDeepField('{"name": "k",', 32)).toBeUndefined();
  });
});
