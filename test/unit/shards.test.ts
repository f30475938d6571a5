import { describe, expect, it } from 'vitest';
import { BOOKMARK_FORMAT, CUSTODIAL_RANGE_SIZE, custodialIndexOfShard, custodialRangeStart, parseShardNames, placeTenant, type ShardName } from '../../src/domain/shards';

/** The pure rules of tenant shards (src/domain/shards.ts, decision 0109). */
describe('SHARDS', () => {
  it('lists binding names SHARD_0 to SHARD_127, in order', () => {
    expect(parseShardNames(' SHARD_0, SHARD_1 ,SHARD_127')).toEqual({ names: ['SHARD_0', 'SHARD_1', 'SHARD_127'] });
  });

  it.each([
    [undefined, /^SHARDS is not set/],
    [' , ', /^SHARDS is not set/],
    ['SHARD_0,DB', /^SHARDS entry 2 is not a shard binding name/],
    ['SHARD_128', /^SHARDS entry 1 is not a shard binding name/],
    ['SHARD_01', /^SHARDS entry 1 is not a shard binding name/],
    ['SHARD_1,SHARD_1', /^SHARDS names a binding twice$/],
  ])('refuses %j, naming the problem, never the value', (value, problem) => {
    const parsed = parseShardNames(value);
    expect('problem' in parsed && parsed.problem).toMatch(problem);
  });
});

describe('placement', () => {
  const names: ShardName[] = ['SHARD_0', 'SHARD_1', 'SHARD_2'];
  it('takes the shard with the fewest tenants, the first listed on a tie, one holding none counting as empty', () => {
    expect(placeTenant(names, new Map([['SHARD_0', 3], ['SHARD_1', 2]]))).toBe('SHARD_2');
    expect(placeTenant(names, new Map([['SHARD_0', 2], ['SHARD_1', 2], ['SHARD_2', 2]]))).toBe('SHARD_0');
    expect(placeTenant(names, new Map([['SHARD_0', 5], ['SHARD_1', 1], ['SHARD_2', 4]]))).toBe('SHARD_1');
  });

  it('takes the pinned shard whatever the counts', () => {
    expect(placeTenant(names, new Map([['SHARD_2', 100]]), 'SHARD_2')).toBe('SHARD_2');
  });
});

describe('custodial wallet ranges', () => {
  it('gives each shard its own range, and refuses an index outside it (it would be another shard\'s key)', () => {
    expect(custodialRangeStart('SHARD_0')).toBe(0);
    expect(custodialRangeStart('SHARD_3')).toBe(3 * CUSTODIAL_RANGE_SIZE);
    expect(custodialIndexOfShard('SHARD_1', CUSTODIAL_RANGE_SIZE)).toBe(CUSTODIAL_RANGE_SIZE);
    expect(custodialIndexOfShard('SHARD_1', 2 * CUSTODIAL_RANGE_SIZE - 1)).toBe(2 * CUSTODIAL_RANGE_SIZE - 1);
    expect(() => custodialIndexOfShard('SHARD_1', 2 * CUSTODIAL_RANGE_SIZE)).toThrow(/outside SHARD_1's range/);
    expect(() => custodialIndexOfShard('SHARD_1', 0)).toThrow(/outside SHARD_1's range/);
    expect(custodialRangeStart('SHARD_127') + CUSTODIAL_RANGE_SIZE).toBe(2 ** 31);
  });
});

describe('bookmarks', () => {
  it('takes D1\'s bookmark form and nothing else', () => {
    expect(BOOKMARK_FORMAT.test('0000007b-0000b26e-00001538-0c3e87bb37b3db5cc52eedb93cd3b96b')).toBe(true);
    for (const wrong of ['', 'garbage', '0000007B-0000b26e-00001538-0c3e87bb37b3db5cc52eedb93cd3b96b', '0000007b-0000b26e-00001538-0c3e87bb37b3db5cc52eedb93cd3b96b\n']) {
      expect(BOOKMARK_FORMAT.test(wrong), wrong).toBe(false);
    }
  });
});
