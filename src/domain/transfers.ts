/**
 * Pure rules of the Transfer indexer: how decoded token logs become balance changes of the
 * platform's wallets, and which block range to scan next. No chain, no database here.
 */

/** ERC-20 balances have no token id; the empty string keeps (wallet, asset, token_id) unique. */
export const FUNGIBLE_TOKEN_ID = '';

/** One balance change carried by a log: `amount` base units of `tokenId` (1 for an ERC-721 token). */
export type TokenMovement = { from: string; to: string; tokenId: string; amount: bigint };

/**
 * A decoded Transfer / TransferSingle / TransferBatch log. It is one entry of an asset's
 * `total_txns`, whatever the number of movements (a TransferBatch carries several).
 */
export type TransferLog = { address: string; blockNumber: number; logIndex: number; movements: TokenMovement[] };

/** The net change of one holding (holder, token id) over some logs, and the last block that touched it. */
export type HoldingDelta = { holder: string; tokenId: string; delta: bigint; lastBlock: number };

/** Addresses compare case-insensitively: logs carry lowercase hex, wallets are stored checksummed. */
export function holdingKey(holder: string, tokenId: string): string {
  return `${holder.toLowerCase()}|${tokenId}`;
}

/**
 * Folds logs into per-(holder, token id) deltas, keeping only holders `isTracked` accepts (the
 * platform's wallets of the asset's tenant): the platform cannot know other holders' balances
 * without their full history, and never serves them. Mints come from and burns go to the zero
 * address, which is never tracked, so they only touch the other side.
 */
export function foldTransfers(logs: readonly TransferLog[], isTracked: (holder: string) => boolean): Map<string, HoldingDelta> {
  const deltas = new Map<string, HoldingDelta>();
  const add = (holder: string, tokenId: string, change: bigint, block: number) => {
    if (!isTracked(holder)) return;
    const key = holdingKey(holder, tokenId);
    const current = deltas.get(key);
    if (current) {
      current.delta += change;
      current.lastBlock = Math.max(current.lastBlock, block);
    } else {
      deltas.set(key, { holder, tokenId, delta: change, lastBlock: block });
    }
  };
  for (const log of logs) {
    for (const movement of log.movements) {
      // A self-transfer leaves the balance as it was, but still marks the holding as seen at this block.
      add(movement.from, movement.tokenId, -movement.amount, log.blockNumber);
      add(movement.to, movement.tokenId, movement.amount, log.blockNumber);
    }
  }
  return deltas;
}

const ZERO_ADDRESS = /^0x0{40}$/i;

/**
 * What the logs minted minus what they burned (movements from / to the zero address), whoever
 * held the tokens: the change of the token's supply, which the supply reconciliation compares with
 * the ledger, so a mint the platform did not make shows.
 *
 * @example netMinted([{ ..., movements: [{ from: '0x0000000000000000000000000000000000000000', to: wallet, tokenId: '', amount: 5n }] }]) // 5n
 */
export function netMinted(logs: readonly TransferLog[]): bigint {
  let net = 0n;
  for (const log of logs) {
    for (const movement of log.movements) {
      if (ZERO_ADDRESS.test(movement.from)) net += movement.amount;
      if (ZERO_ADDRESS.test(movement.to)) net -= movement.amount;
    }
  }
  return net;
}

/**
 * The new balance (decimal string, base units) after `delta`. A result below zero means logs were
 * missed (the scan started after the holder received tokens); it is reported and stored as zero,
 * because a holding can never be negative onchain.
 */
export function applyDelta(current: string | undefined, delta: bigint): { balance: string; underflow: boolean } {
  const next = BigInt(current ?? '0') + delta;
  return next < 0n ? { balance: '0', underflow: true } : { balance: next.toString(), underflow: false };
}

/**
 * The next block range to scan: from the earliest block any asset still needs, at most
 * `chunkSize` blocks (RPC providers cap `eth_getLogs` ranges), never past the last confirmed
 * block. Null when every asset is up to date.
 */
export function planChunk(nextBlocks: readonly number[], safeHead: number, chunkSize: number): { from: number; to: number } | null {
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunk size must be a positive integer, got ${chunkSize}`);
  if (nextBlocks.length === 0) return null;
  const from = Math.min(...nextBlocks);
  if (from > safeHead) return null;
  return { from, to: Math.min(from + chunkSize - 1, safeHead) };
}

/** The last block buried under `confirmations` blocks (1 = the latest block itself). */
export function confirmedHead(latestBlock: number, confirmations: number): number {
  return latestBlock - (Math.max(1, confirmations) - 1);
}
