import { describe, expect, it } from 'vitest';
import { countBucket } from '../../src/domain/tenant-counts';
import { pageWindow } from '../../src/lib/paging';

describe('pageWindow', () => {
  it('reads pages up to the middle from the newest end', () => {
    expect(pageWindow({ page: 1, limit: 20 }, 95)).toEqual({ fromOldest: false, offset: 0, limit: 20 });
    expect(pageWindow({ page: 2, limit: 20 }, 95)).toEqual({ fromOldest: false, offset: 20, limit: 20 });
  });

  it('reads pages past the middle from the oldest end, the last page from offset 0', () => {
    expect(pageWindow({ page: 5, limit: 20 }, 95)).toEqual({ fromOldest: true, offset: 0, limit: 15 });
    expect(pageWindow({ page: 4, limit: 20 }, 95)).toEqual({ fromOldest: true, offset: 15, limit: 20 });
    expect(pageWindow({ page: 10, limit: 10 }, 100)).toEqual({ fromOldest: true, offset: 0, limit: 10 });
  });

  it('reads nothing past the end and for an empty list', () => {
    expect(pageWindow({ page: 6, limit: 20 }, 95)).toEqual({ fromOldest: false, offset: 100, limit: 0 });
    expect(pageWindow({ page: 1, limit: 20 }, 0)).toEqual({ fromOldest: false, offset: 0, limit: 0 });
  });

  it('covers every row exactly once across the pages, whichever end each is read from', () => {
    for (const total of [0, 1, 19, 20, 21, 95, 100]) {
      const newestFirst = Array.from({ length: total }, (_, index) => total - index);
      const oldestFirst = [...newestFirst].reverse();
      const shown: number[] = [];
      for (let page = 1; page <= Math.ceil(total / 20) + 1; page += 1) {
        const window = pageWindow({ page, limit: 20 }, total);
        const rows = (window.fromOldest ? oldestFirst : newestFirst).slice(window.offset, window.offset + window.limit);
        shown.push(...(window.fromOldest ? rows.reverse() : rows));
      }
      expect(shown).toEqual(newestFirst);
    }
  });
});

describe('countBucket', () => {
  it('names the buckets migrations/shard/0006 writes', () => {
    expect(countBucket({})).toBe('all');
    expect(countBucket({ status: 'active' })).toBe('status=active');
    expect(countBucket({ type: 'xp_earn' })).toBe('type=xp_earn');
    expect(countBucket({ type: 'xp_earn', status: 'completed' })).toBe('type=xp_earn&status=completed');
  });
});
