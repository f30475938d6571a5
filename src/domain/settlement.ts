import type { OnchainAssetType } from '../db/schema';
import { ApiError } from '../lib/errors';

/**
 * Pure rules of onchain settlement (docs/ONCHAIN.md): fee bumps of stuck transactions, backoff of
 * failed tries, and when a receipt is final.
 */

/** Real nodes refuse a same-nonce replacement unless both fee fields rise by at least 10%. */
export const REPLACEMENT_BUMP_PERCENT = 10n;

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

const bumped = (value: bigint) => value + (value * REPLACEMENT_BUMP_PERCENT + 99n) / 100n;

/**
 * Fees of a replacement: each field at least +10% over the stuck attempt (rounded up, and at least
 * +1 wei) and never below what the network asks now; the max fee always covers the priority fee.
 *
 * @example replacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, { maxFeePerGas: 50n, maxPriorityFeePerGas: 1n })
 * // { maxFeePerGas: 110n, maxPriorityFeePerGas: 11n }
 */
export function replacementFees(previous: Fees, network: Fees): Fees {
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  const maxPriorityFeePerGas = max(max(bumped(previous.maxPriorityFeePerGas), previous.maxPriorityFeePerGas + 1n), network.maxPriorityFeePerGas);
  const maxFeePerGas = max(max(max(bumped(previous.maxFeePerGas), previous.maxFeePerGas + 1n), network.maxFeePerGas), maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** Seconds before the next try after `errorCount` failed ones: 5 s doubling, at most an hour. */
export function retryDelaySeconds(errorCount: number): number {
  return Math.min(3600, 5 * 2 ** Math.max(0, Math.min(errorCount - 1, 12)));
}

/** Failed tries (RPC down, nonce taken by an unrecorded transaction) after which an operation is given up: about a day of backoff. */
export const MAX_OPERATION_ERRORS = 30;

/** Seconds until the UTC day ends, when a tenant's spent gas budget is whole again. */
export function secondsUntilUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/** A receipt in block `receiptBlock` is final once `confirmations` blocks (itself included) are on top of the chain. */
export function isFinal(receiptBlock: bigint, latestBlock: bigint, confirmations: number): boolean {
  return latestBlock - receiptBlock + 1n >= BigInt(confirmations);
}

/** What a reward delivers onchain: base units (or a count) and, for ERC-1155, the token id. */
export type RewardDelivery = { amount: string; tokenId: string | null };

function wholeNumber(value: unknown, field: string): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[0-9]{1,78}$/.test(text)) {
    throw new ApiError('CONFLICT', `The reward's metadata.${field} must be a whole number (base units) to deliver it onchain`, { path: 'reward_id' });
  }
  return BigInt(text);
}

/**
 * CONTRACT.md: erc20 mints `metadata.onchain_amount` base units (default 10^decimals), erc721 one
 * token, erc1155 `metadata.token_id` x `metadata.onchain_amount` (default 1; token id default 0).
 */
export function rewardDelivery(asset: { type: OnchainAssetType; decimals: number | null }, metadata: unknown): RewardDelivery {
  const fields = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  if (asset.type === 'erc721') return { amount: '1', tokenId: null };
  const amount = wholeNumber(fields.onchain_amount, 'onchain_amount');
  if (asset.type === 'erc20') return { amount: String(amount ?? 10n ** BigInt(asset.decimals ?? 0)), tokenId: null };
  return { amount: String(amount ?? 1n), tokenId: String(wholeNumber(fields.token_id, 'token_id') ?? 0n) };
}
