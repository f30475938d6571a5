import { describe, expect, it } from 'vitest';
import { newId, timePart } from '../../src/lib/ids';

describe('newId', () => {
  it('is the prefix and 26 lowercase base32 characters, never the same twice', () => {
    const ids = Array.from({ length: 10_000 }, () => newId('cus'));
    for (const id of ids) expect(id).toMatch(/^cus_[a-z2-7]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps 80 random bits: ids of the same millisecond differ in their last 16 characters', () => {
    const ids = Array.from({ length: 1_000 }, () => newId('itx'));
    const times = new Set(ids.map((id) => id.slice(4, 14)));
    const rests = new Set(ids.map((id) => id.slice(14)));
    expect(times.size).toBeLessThan(ids.length);
    expect(rests.size).toBe(ids.length);
  });

  it('sorts by creation time, as bytes sort them (SQLite BINARY)', () => {
    const instants = [0, 1, 31, 32, 1_000, Date.UTC(2026, 10, 27), Date.UTC(2026, 10, 27) + 1, Date.UTC(2100, 0, 1), 2 ** 48 - 1];
    const parts = instants.map(timePart);
    for (const part of parts) expect(part).toMatch(/^[a-z2-7]{10}$/);
    const byteOrder = [...parts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(byteOrder).toEqual(parts);
  });
});
