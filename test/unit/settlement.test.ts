import { describe, expect, it } from 'vitest';
import { isFinal, replacementFees, retryDelaySeconds, rewardDelivery, type Fees } from '../../src/domain/settlement';
import { ApiError } from '../../src/lib/errors';

const atLeastTenPercentMore = (next: bigint, previous: bigint) => next * 100n >= previous * 110n && next > previous;

describe('replacementFees', () => {
  const cases: { previous: Fees; network: Fees }[] = [
    { previous: { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, network: { maxFeePerGas: 50n, maxPriorityFeePerGas: 1n } },
    { previous: { maxFeePerGas: 1n, maxPriorityFeePerGas: 0n }, network: { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n } },
    { previous: { maxFeePerGas: 9n, maxPriorityFeePerGas: 9n }, network: { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n } },
    { previous: { maxFeePerGas: 1_000_000_007n, maxPriorityFeePerGas: 1_000_000_001n }, network: { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n } },
    { previous: { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, network: { maxFeePerGas: 5_000n, maxPriorityFeePerGas: 700n } },
    { previous: { maxFeePerGas: 10n, maxPriorityFeePerGas: 10n }, network: { maxFeePerGas: 5n, maxPriorityFeePerGas: 50n } },
  ];

  it('matches the documented example', () => {
    expect(replacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, { maxFeePerGas: 50n, maxPriorityFeePerGas: 1n })).toEqual({ maxFeePerGas: 110n, maxPriorityFeePerGas: 11n });
  });

  for (const { previous, network } of cases) {
    it(`bumps ${previous.maxFeePerGas}/${previous.maxPriorityFeePerGas} over network ${network.maxFeePerGas}/${network.maxPriorityFeePerGas}`, () => {
      const next = replacementFees(previous, network);
      // Both fields at least +10% (and strictly more), as nodes require for a same-nonce replacement.
      expect(atLeastTenPercentMore(next.maxFeePerGas, previous.maxFeePerGas)).toBe(true);
      expect(atLeastTenPercentMore(next.maxPriorityFeePerGas, previous.maxPriorityFeePerGas)).toBe(true);
      // Never below what the network asks now.
      expect(next.maxFeePerGas).toBeGreaterThanOrEqual(network.maxFeePerGas);
      expect(next.maxPriorityFeePerGas).toBeGreaterThanOrEqual(network.maxPriorityFeePerGas);
      // A max fee below the priority fee is an invalid EIP-1559 transaction.
      expect(next.maxFeePerGas).toBeGreaterThanOrEqual(next.maxPriorityFeePerGas);
    });
  }

  it('rounds the bump up (never loses the 10% to integer division)', () => {
    expect(replacementFees({ maxFeePerGas: 101n, maxPriorityFeePerGas: 11n }, { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })).toEqual({ maxFeePerGas: 112n, maxPriorityFeePerGas: 13n });
  });

  it('replacing a replacement keeps climbing', () => {
    const network = { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };
    let fees: Fees = { maxFeePerGas: 1_000n, maxPriorityFeePerGas: 100n };
    for (let round = 0; round < 5; round += 1) {
      const next = replacementFees(fees, network);
      expect(atLeastTenPercentMore(next.maxFeePerGas, fees.maxFeePerGas)).toBe(true);
      expect(atLeastTenPercentMore(next.maxPriorityFeePerGas, fees.maxPriorityFeePerGas)).toBe(true);
      fees = next;
    }
  });
});

describe('retryDelaySeconds', () => {
  it('starts at 5 s and doubles', () => {
    expect([1, 2, 3, 4, 5].map(retryDelaySeconds)).toEqual([5, 10, 20, 40, 80]);
  });

  it('treats 0 or fewer errors like the first', () => {
    expect(retryDelaySeconds(0)).toBe(5);
    expect(retryDelaySeconds(-3)).toBe(5);
  });

  it('is capped at an hour, also for huge counts', () => {
    expect(retryDelaySeconds(11)).toBe(3600);
    expect(retryDelaySeconds(30)).toBe(3600);
    expect(retryDelaySeconds(10_000)).toBe(3600);
  });

  it('never decreases', () => {
    for (let count = 1; count < 40; count += 1) expect(retryDelaySeconds(count + 1)).toBeGreaterThanOrEqual(retryDelaySeconds(count));
  });
});

describe('isFinal', () => {
  it('counts the receipt block itself as one confirmation', () => {
    expect(isFinal(10n, 10n, 1)).toBe(true);
    expect(isFinal(10n, 10n, 2)).toBe(false);
    expect(isFinal(10n, 11n, 2)).toBe(true);
    expect(isFinal(10n, 21n, 12)).toBe(true);
    expect(isFinal(10n, 20n, 12)).toBe(false);
  });

  it('is not final when the node is behind the receipt', () => {
    expect(isFinal(10n, 9n, 1)).toBe(false);
  });

  it('zero confirmations: final once the block exists', () => {
    expect(isFinal(10n, 10n, 0)).toBe(true);
  });
});

describe('rewardDelivery', () => {
  const erc20 = (decimals: number | null) => ({ type: 'erc20' as const, decimals });

  it('erc20 defaults to one whole token (10^decimals)', () => {
    expect(rewardDelivery(erc20(18), null)).toEqual({ amount: '1000000000000000000', tokenId: null });
    expect(rewardDelivery(erc20(0), {})).toEqual({ amount: '1', tokenId: null });
    expect(rewardDelivery(erc20(null), undefined)).toEqual({ amount: '1', tokenId: null });
  });

  it('erc20 takes metadata.onchain_amount in base units (string or number), exact past 2^53', () => {
    expect(rewardDelivery(erc20(18), { onchain_amount: '25' })).toEqual({ amount: '25', tokenId: null });
    expect(rewardDelivery(erc20(18), { onchain_amount: 7 })).toEqual({ amount: '7', tokenId: null });
    expect(rewardDelivery(erc20(18), { onchain_amount: '123456789012345678901234567890' }).amount).toBe('123456789012345678901234567890');
  });

  it('erc721 is always one token, whatever the metadata says', () => {
    expect(rewardDelivery({ type: 'erc721', decimals: 0 }, { onchain_amount: '5', token_id: '3' })).toEqual({ amount: '1', tokenId: null });
    expect(rewardDelivery({ type: 'erc721', decimals: null }, { onchain_amount: 'bad' })).toEqual({ amount: '1', tokenId: null });
  });

  it('erc1155 defaults to one of token 0, else metadata token_id x onchain_amount', () => {
    expect(rewardDelivery({ type: 'erc1155', decimals: null }, null)).toEqual({ amount: '1', tokenId: '0' });
    expect(rewardDelivery({ type: 'erc1155', decimals: null }, { token_id: '7', onchain_amount: '3' })).toEqual({ amount: '3', tokenId: '7' });
    expect(rewardDelivery({ type: 'erc1155', decimals: null }, { token_id: 9 })).toEqual({ amount: '1', tokenId: '9' });
  });

  const badAmounts: unknown[] = ['-1', '1.5', 'ten', '', ' 5', 1.5, -2, true, {}, ['1'], '1e3', '9'.repeat(79)];
  for (const bad of badAmounts) {
    it(`409 CONFLICT for metadata.onchain_amount ${JSON.stringify(bad)}`, () => {
      for (const asset of [erc20(2), { type: 'erc1155' as const, decimals: null }]) {
        let thrown: unknown;
        try {
          rewardDelivery(asset, { onchain_amount: bad });
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ApiError);
        const apiError = thrown as ApiError;
        expect(apiError.code).toBe('CONFLICT');
        expect(apiError.status).toBe(409);
        expect(apiError.message).toMatch(/onchain_amount/);
      }
    });
  }

  it('409 CONFLICT for a bad erc1155 metadata.token_id', () => {
    expect(() => rewardDelivery({ type: 'erc1155', decimals: null }, { token_id: '-7' })).toThrow(/token_id/);
  });
});
