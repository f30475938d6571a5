import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/errors';
import { assertAssetStatusMove, assetShapeViolations, storedDecimals, sumBaseUnits, toBaseUnits } from '../../src/domain/onchain-assets';

describe('toBaseUnits', () => {
  it('scales whole units by 10^decimals exactly, as a decimal string', () => {
    expect(toBaseUnits(150, 0)).toBe('150');
    expect(toBaseUnits(150, 18)).toBe('150000000000000000000');
    expect(toBaseUnits(-20, 2)).toBe('-2000');
    expect(toBaseUnits('1000000000', 36)).toBe(`1${'0'.repeat(45)}`);
    expect(toBaseUnits(9007199254740993n, 1)).toBe('90071992547409930');
    expect(toBaseUnits(0, 18)).toBe('0');
  });

  it('refuses decimals outside 0-36 and fractional amounts', () => {
    expect(() => toBaseUnits(1, 37)).toThrow(RangeError);
    expect(() => toBaseUnits(1, -1)).toThrow(RangeError);
    expect(() => toBaseUnits(1.5, 0)).toThrow(RangeError);
  });
});

describe('sumBaseUnits', () => {
  it('adds strings past 2^53 exactly and skips empty values', () => {
    expect(sumBaseUnits(['9007199254740993', '1', null, undefined, ''])).toBe(9007199254740994n);
    expect(sumBaseUnits([])).toBe(0n);
  });
});

describe('assetShapeViolations', () => {
  it('accepts sound bodies', () => {
    expect(assetShapeViolations({ type: 'erc20', decimals: 18, key: 'xp' })).toEqual([]);
    expect(assetShapeViolations({ type: 'erc721' })).toEqual([]);
    expect(assetShapeViolations({ type: 'erc1155', decimals: 0, asset_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })).toEqual([]);
  });

  it('reports each broken rule at its field', () => {
    expect(assetShapeViolations({ type: 'erc20' }).map((e) => e.path)).toEqual(['decimals']);
    expect(assetShapeViolations({ type: 'erc721', decimals: 2, key: 'xp', asset_address: '0x12' }).map((e) => e.path)).toEqual(['decimals', 'type', 'asset_address']);
    // A mixed-case address with a broken EIP-55 checksum is a typo, not an address.
    expect(assetShapeViolations({ type: 'erc721', asset_address: '0x5fbDB2315678afecb367f032d93F642f64180aa3' }).map((e) => e.path)).toEqual(['asset_address']);
  });

  it('stores 0 decimals for token types without them', () => {
    expect(storedDecimals({ type: 'erc20', decimals: 6 })).toBe(6);
    expect(storedDecimals({ type: 'erc721' })).toBe(0);
    expect(storedDecimals({ type: 'erc1155', decimals: 0 })).toBe(0);
  });
});

describe('asset status moves', () => {
  it('only active <-> inactive (and staying put) are admin moves', () => {
    expect(() => assertAssetStatusMove('active', 'inactive')).not.toThrow();
    expect(() => assertAssetStatusMove('inactive', 'active')).not.toThrow();
    expect(() => assertAssetStatusMove('active', 'active')).not.toThrow();
    for (const [from, to] of [['deploying', 'active'], ['failed', 'failed'], ['active', 'failed']] as const) {
      const error = (() => {
        try {
          assertAssetStatusMove(from, to);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', status: 409, errors: [{ path: 'status' }] });
    }
  });
});
