import { erc20Abi, getAddress } from 'viem';
import { XP_ASSET_KEY, type OnchainAsset } from '../db/schema';
import {
  advanceOpening,
  customerOfEntry,
  nextCustomers,
  openingOf,
  openingOfOperation,
  openingsDue,
  openingStatements,
  queuedOpeningOperations,
  setOpeningAmount,
  waitForOpening,
} from '../data/xp-openings';
import { namedBatch } from '../data/named-batch';
import type { LoadedOperation } from '../data/settlement';
import { toBaseUnits } from '../domain/onchain-assets';
import type { ShardContext } from './context';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/**
 * An XP token added to a live program (docs/decisions/0032-xp-token-added-to-live-program.md): when the token becomes active, every
 * customer's XP that it does not mirror is minted to their wallet (burned, when the chain holds
 * more), once, by the settlement pipeline, before any later debit of that customer is burned.
 */

/** Customers opened per statement batch, and batches per token per cron run: bounded work. */
export const OPENING_CHUNK_SIZE = 200;
export const OPENING_CHUNKS_PER_RUN = 5;
/** Tokens whose opening one cron run advances. */
const OPENING_TOKENS_PER_RUN = 20;

export type OpeningSummary = { tokens: number; chunks: number; operations: number; completed: number; errors: number };

/** One chunk of customers after the cursor: their openings and operations in one batch; true when it was the last. */
async function openChunk({ db, onchain, shard }: ShardContext, asset: OnchainAsset, summary: OpeningSummary): Promise<boolean> {
  const next = await nextCustomers(db, asset, OPENING_CHUNK_SIZE);
  const last = next.length < OPENING_CHUNK_SIZE;
  const toSeq = next.at(-1)?.seq ?? asset.openingCursor ?? 0;
  const scope = { fromSeq: asset.openingCursor ?? 0, toSeq };
  const { queued } = await namedBatch(db, {
    openings: openingStatements(db, asset, scope),
    cursor: advanceOpening(db, asset, toSeq, last),
    queued: queuedOpeningOperations(db, asset, scope),
  });
  await onchain.enqueue(shard.name, queued.map((row) => row.id));
  summary.chunks += 1;
  summary.operations += queued.length;
  asset.openingCursor = toSeq;
  return last;
}

/**
 * The minute cron: advances every XP token's opening by at most OPENING_CHUNKS_PER_RUN chunks of
 * OPENING_CHUNK_SIZE customers. A token that fails (its gas budget spent: the trigger refuses its
 * operations) is logged and tried again next run; the others go on.
 */
export async function openXpTokens(ctx: ShardContext): Promise<OpeningSummary> {
  const summary: OpeningSummary = { tokens: 0, chunks: 0, operations: 0, completed: 0, errors: 0 };
  for (const asset of await openingsDue(ctx.db, OPENING_TOKENS_PER_RUN)) {
    summary.tokens += 1;
    try {
      for (let chunk = 0; chunk < OPENING_CHUNKS_PER_RUN; chunk += 1) {
        if (await openChunk(ctx, asset, summary)) {
          summary.completed += 1;
          break;
        }
      }
    } catch (error) {
      summary.errors += 1;
      log('error', 'opening an XP token failed; next run retries', { job: 'xp-openings', asset_id: asset.id, tenant_id: asset.tenantId, reason: reasonOf(error) });
    }
  }
  return summary;
}

/** Whether a burn may be sent now. */
export type OpeningGate = { ready: true } | { ready: false; waiting: true } | { ready: false; waiting: false; reason: string };

const READY: OpeningGate = { ready: true };

/**
 * A burn of the XP token waits for its customer's opening: the chain must hold the customer's XP
 * from before the token before any of it is burned. A customer the opening has not reached yet is
 * opened now (the same statements as the cron's, for one customer). A failed opening fails the burn
 * (its XP is given back); one on its way makes the burn wait for it.
 */
export async function openingGate({ db, onchain, shard }: ShardContext, loaded: LoadedOperation): Promise<OpeningGate> {
  const { operation, asset } = loaded;
  if (operation.kind !== 'burn' || asset.key !== XP_ASSET_KEY || asset.openingEpoch === 0 || !operation.internalTransactionId) return READY;
  const userId = await customerOfEntry(db, operation.tenantId, operation.internalTransactionId);
  if (!userId) return READY;
  let opening = await openingOf(db, asset, userId);
  if (!opening && asset.openingCompletedAt === null) {
    const scope = { userId };
    const { queued } = await namedBatch(db, { openings: openingStatements(db, asset, scope), queued: queuedOpeningOperations(db, asset, scope) });
    await onchain.enqueue(shard.name, queued.map((row) => row.id));
    opening = await openingOf(db, asset, userId);
  }
  if (!opening?.operationId || opening.status === 'succeeded') return READY;
  if (opening.status === 'failed' || opening.status === 'canceled') {
    return { ready: false, waiting: false, reason: `the opening of the customer's XP onto the token (${opening.operationId}) failed` };
  }
  if (await waitForOpening(db, operation.id, opening.operationId)) return { ready: false, waiting: true };
  return READY; // the opening settled between the read and the wait
}

/**
 * What an `opening_mint` moves: the opening's XP in base units, less what the customer's wallet
 * already held of a registered token when it was registered (its first opening only: that balance
 * counts toward the customer's XP). Written on the operation before it is signed; a redelivery
 * computes the same from the same block.
 */
export async function openingMintAmount({ db, onchain }: ShardContext, loaded: LoadedOperation): Promise<bigint> {
  const { operation, asset } = loaded;
  const current = BigInt(operation.amount ?? '0');
  if (asset.openingBlock === null || !asset.assetAddress || !operation.recipient) return current;
  const opening = await openingOfOperation(db, operation.id);
  if (opening?.epoch !== 1) return current;
  const held = await onchain.client(operation.chainId).readContract({
    address: getAddress(asset.assetAddress),
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [getAddress(operation.recipient)],
    blockNumber: BigInt(asset.openingBlock),
  });
  // From the opening's own XP, not the operation's amount (already lowered by an earlier delivery).
  const full = BigInt(toBaseUnits(opening.xp, asset.decimals ?? 0));
  const amount = full > held ? full - held : 0n;
  if (amount !== current) await setOpeningAmount(db, operation.id, amount.toString());
  return amount;
}
