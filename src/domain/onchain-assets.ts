import { isAddress } from 'viem';
import { XP_ASSET_KEY, type OnchainAssetStatus, type OnchainAssetType } from '../db/schema';
import { ApiError, type FieldError } from '../lib/errors';

/** ERC-20 `decimals` is a uint8, but nothing real goes past 36 (and 10^36 x an XP amount still fits a uint256). */
export const MAX_ASSET_DECIMALS = 36;

/**
 * Chain ids are JSON numbers in the API, so the largest one taken is the largest a JSON number holds
 * exactly (CHAINS refuses any other, src/chain/chains.ts); chains in use are far below it.
 */
export const MAX_CHAIN_ID = Number.MAX_SAFE_INTEGER;

/** Asset keys are identifiers a tenant's code may name (`xp`, `gold_badge`): lowercase letters, digits, underscores. */
export const ASSET_KEY_PATTERN = /^[a-z0-9_]{1,64}$/;

/**
 * `amount` whole units (XP points, may be negative) in base units of a token with `decimals`, as a
 * decimal string: BigInt throughout, since 10^18 x anything overflows a JS number.
 *
 * @example toBaseUnits(150, 18) // '150000000000000000000'
 */
export function toBaseUnits(amount: number | bigint | string, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_ASSET_DECIMALS) throw new RangeError(`decimals must be 0-${MAX_ASSET_DECIMALS}`);
  if (typeof amount === 'number' && !Number.isSafeInteger(amount)) throw new RangeError('amount must be a whole number');
  return (BigInt(amount) * 10n ** BigInt(decimals)).toString();
}

/**
 * Sums base-unit decimal strings exactly (balances may exceed 2^53, so never through SQL REAL or JS numbers).
 *
 * @example sumBaseUnits(['1', '9007199254740993']) // 9007199254740994n
 */
export function sumBaseUnits(amounts: Iterable<string | null | undefined>): bigint {
  let total = 0n;
  for (const amount of amounts) if (amount) total += BigInt(amount);
  return total;
}

export type AssetShape = { type: OnchainAssetType; key?: string; decimals?: number; asset_address?: string };

/**
 * The rules between fields of a create body that zod's per-field shapes cannot express, as one
 * error per offending field (empty when the body is sound).
 */
export function assetShapeViolations(body: AssetShape): FieldError[] {
  const errors: FieldError[] = [];
  if (body.type === 'erc20' && body.decimals === undefined) {
    errors.push({ path: 'decimals', message: `Required for erc20 (0-${MAX_ASSET_DECIMALS})` });
  }
  if (body.type !== 'erc20' && body.decimals !== undefined && body.decimals !== 0) {
    errors.push({ path: 'decimals', message: `${body.type} tokens have no decimals: omit it or send 0` });
  }
  if (body.key === XP_ASSET_KEY && body.type !== 'erc20') {
    errors.push({ path: 'type', message: `The asset with key "${XP_ASSET_KEY}" is the tenant's XP token and must be erc20` });
  }
  if (body.asset_address !== undefined && !isAddress(body.asset_address)) {
    errors.push({ path: 'asset_address', message: 'Must be a 0x-prefixed 20-byte hex address (mixed case must be a valid EIP-55 checksum)' });
  }
  return errors;
}

/** What is stored as `decimals`: the body's for erc20, 0 for token types without decimals. */
export function storedDecimals(body: AssetShape): number {
  return body.type === 'erc20' ? (body.decimals ?? 0) : 0;
}

/**
 * Admins only switch an asset between `active` and `inactive`; `deploying` and `failed` belong to
 * the settlement core (a deploy's receipt decides them), so no admin move leaves or enters them.
 * Keeping the same status is allowed (a PATCH that resends it).
 */
export const assetStatusMoves: Readonly<Record<OnchainAssetStatus, readonly OnchainAssetStatus[]>> = {
  active: ['active', 'inactive'],
  inactive: ['inactive', 'active'],
  deploying: [],
  failed: [],
};

/** @example assertAssetStatusMove('deploying', 'active') // 409 INVALID_STATUS_TRANSITION */
export function assertAssetStatusMove(from: OnchainAssetStatus, to: OnchainAssetStatus): void {
  if (!assetStatusMoves[from].includes(to)) {
    throw new ApiError('INVALID_STATUS_TRANSITION', `Onchain asset status cannot move from ${from} to ${to}`, { path: 'status' });
  }
}
