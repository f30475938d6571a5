import { describe, expect, it } from 'vitest';
import { BoundedMap, ExpiringMap } from '../../src/lib/bounded-map';

describe('BoundedMap (the isolate caches of authentication)', () => {
  it('keeps at most its capacity, dropping the oldest-inserted first', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.size).toBe(2);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('counts a replaced key as the newest', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 10);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([10, undefined, 3]);
  });

  it('deletes', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.delete('a');
    expect(map.get('a')).toBeUndefined();
    expect(map.size).toBe(0);
  });
});

describe('ExpiringMap (the isolate memories of members and rewards)', () => {
  it('forgets an entry once its lifetime is over, and keeps one within it', () => {
    const lapsed = new ExpiringMap<string, number>(10, 0);
    lapsed.set('a', 1);
    expect(lapsed.get('a')).toBeUndefined();
    const kept = new ExpiringMap<string, number>(10, 60_000);
    kept.set('a', 1);
    expect(kept.get('a')).toBe(1);
    kept.delete('a');
    expect(kept.get('a')).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the oldest first', () => {
    const map = new ExpiringMap<string, number>(2, 60_000);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 2, 3]);
  });
});
