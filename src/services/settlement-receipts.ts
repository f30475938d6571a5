import { TransactionNotFoundError, TransactionReceiptNotFoundError, getAddress, keccak256, type Hex } from 'viem';
import type { OnchainContext } from '../chain/context';
import type { BlockchainTransaction } from '../db/schema';
import { failedStatements, releasedOperationsQuery, runBatch, succeededStatements, type ReceiptFields } from '../data/settlement-outcomes';
import { loadOperation, markAttempt, recordAttempt, recordOperationError, strandedOperations, submittedOperations, touchOperation, type LoadedOperation } from '../data/settlement';
import { isFinal, replacementFees } from '../domain/settlement';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import type { ShardContext } from './context';
import { broadcast, enqueueOperations } from './settlement';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/** Operations looked at per run; the rest wait for the next minute (least recently looked at first). */
const FOLLOW_LIMIT = 200;
/** A queued operation untouched this long lost its message: it is enqueued again. */
const STRANDED_AFTER_SECONDS = 60;
/** Runs in a row that find the nonce consumed by an unrecorded transaction before the operation is given up. */
const NONCE_LOST_STRIKES = 3;

export type FollowOutcome = 'succeeded' | 'failed' | 'waiting' | 'replaced' | 'rebroadcast' | 'nonce_lost' | 'error';
export type FollowSummary = Record<FollowOutcome, number> & { requeued: number };

const notFound = (error: unknown) => error instanceof TransactionReceiptNotFoundError || error instanceof TransactionNotFoundError;

async function receiptOf(onchain: OnchainContext, chainId: number, attempt: BlockchainTransaction) {
  return onchain.client(chainId).getTransactionReceipt({ hash: attempt.txHash as Hex }).catch((error: unknown) => {
    if (notFound(error)) return undefined;
    throw error;
  });
}

/** A receipt decides the operation once final: succeeded or failed, every other attempt replaced. */
async function settleFromReceipt(ctx: ShardContext, loaded: LoadedOperation, attempt: BlockchainTransaction, receipt: NonNullable<Awaited<ReturnType<typeof receiptOf>>>): Promise<FollowOutcome> {
  const { db, onchain } = ctx;
  const { operation } = loaded;
  const client = onchain.client(operation.chainId);
  if (!isFinal(receipt.blockNumber, await client.getBlockNumber({ cacheTime: 0 }), onchain.confirmations)) {
    await markAttempt(db, attempt, 'pending', isoNow(ctx.now()));
    return 'waiting';
  }
  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  const fields: ReceiptFields = {
    attemptId: attempt.id,
    succeeded: receipt.status === 'success',
    blockHash: receipt.blockHash,
    blockNumber: receipt.blockNumber,
    blockTimestamp: Number(block.timestamp),
    gasPrice: receipt.effectiveGasPrice,
    gasUsed: receipt.gasUsed,
    transactionIndex: receipt.transactionIndex,
    contractAddress: receipt.contractAddress ? getAddress(receipt.contractAddress) : null,
  };
  if (!fields.succeeded) {
    await runBatch(db, failedStatements(db, operation, fields, `transaction ${attempt.txHash} reverted`, isoNow(ctx.now())));
    return 'failed';
  }
  await runBatch(db, succeededStatements(db, operation, fields, isoNow(ctx.now())));
  const released = await releasedOperationsQuery(db, operation.id);
  await enqueueOperations(ctx, released.map((row) => row.id));
  return 'succeeded';
}

/** Re-sends a stuck attempt with the same nonce and higher fees (a new attempt; the old one is `replaced`). */
async function replace(ctx: ShardContext, loaded: LoadedOperation, stuck: BlockchainTransaction): Promise<FollowOutcome> {
  const { operation } = loaded;
  const relayer = ctx.onchain.relayer();
  if (relayer.address !== operation.relayerAddress || stuck.txNonce === null) {
    log('warn', 'stuck transaction signed by another relayer key; not replaced', { operation_id: operation.id, tenant_id: operation.tenantId });
    return 'waiting';
  }
  const network = await ctx.onchain.client(operation.chainId).estimateFeesPerGas();
  const fees = replacementFees({ maxFeePerGas: BigInt(stuck.txMaxFeePerGas ?? 0), maxPriorityFeePerGas: BigInt(stuck.txMaxPriorityFeePerGas ?? 0) }, network);
  const to = stuck.txTo ? getAddress(stuck.txTo) : undefined;
  const data = (stuck.txData ?? '0x') as Hex;
  const gas = BigInt(stuck.txGasLimit ?? 0);
  const raw = await relayer.signTransaction({ type: 'eip1559', chainId: operation.chainId, nonce: stuck.txNonce, to, data, gas, value: 0n, ...fees });
  const attempt = (stuck.attempt ?? loaded.attempts.length) + 1;
  const signed = { id: newId('btx'), attempt, hash: keccak256(raw), raw, from: relayer.address, to: to ?? null, data, nonce: stuck.txNonce, gas, ...fees };
  if (!(await recordAttempt(ctx.db, operation, signed, isoNow(ctx.now()), stuck.id))) return 'waiting';
  await broadcast(ctx, operation, { id: signed.id, attempt, rawTransaction: raw });
  log('info', 'stuck transaction replaced', { operation_id: operation.id, tenant_id: operation.tenantId, nonce: stuck.txNonce, attempt });
  return 'replaced';
}

/** No receipt yet: pending in the pool (replace it once stuck), dropped (re-broadcast), or its nonce taken by something else. */
async function followUnmined(ctx: ShardContext, loaded: LoadedOperation, latest: BlockchainTransaction): Promise<FollowOutcome> {
  const { db } = ctx;
  const { operation } = loaded;
  const client = ctx.onchain.client(operation.chainId);
  const now = ctx.now();
  const pooled = await client.getTransaction({ hash: latest.txHash as Hex }).catch((error: unknown) => {
    if (notFound(error)) return undefined;
    throw error;
  });
  if (pooled) {
    await markAttempt(db, latest, 'pending', isoNow(now));
    const ageSeconds = (now.getTime() - Date.parse(latest.createdAt)) / 1000;
    if (ageSeconds >= ctx.onchain.stuckAfterSeconds) return replace(ctx, loaded, latest);
    return 'waiting';
  }
  const mined = await client.getTransactionCount({ address: getAddress(operation.relayerAddress ?? latest.txFrom ?? '0x'), blockTag: 'latest' });
  if (operation.nonce !== null && mined > operation.nonce) {
    const strikes = await recordOperationError(db, operation.id, `nonce ${operation.nonce} was consumed by a transaction this platform did not record`, { retryAt: isoNow(now), now: isoNow(now) });
    log('error', 'relayer nonce consumed by an unrecorded transaction', { operation_id: operation.id, tenant_id: operation.tenantId, chain_id: operation.chainId, nonce: operation.nonce, strikes });
    if (strikes < NONCE_LOST_STRIKES) return 'nonce_lost';
    await runBatch(db, failedStatements(db, operation, undefined, `given up: nonce ${operation.nonce} consumed by an unrecorded transaction`, isoNow(now)));
    return 'failed';
  }
  await broadcast(ctx, operation, latest);
  return 'rebroadcast';
}

/** Follows one submitted operation to its outcome (docs/ONCHAIN.md, "Following receipts"). */
export async function followOperation(ctx: ShardContext, operationId: string): Promise<FollowOutcome> {
  const { db } = ctx;
  const loaded = await loadOperation(db, operationId);
  if (!loaded || loaded.operation.status !== 'submitted') return 'waiting';
  try {
    for (const attempt of [...loaded.attempts].reverse()) {
      const receipt = await receiptOf(ctx.onchain, loaded.operation.chainId, attempt);
      if (receipt) return await settleFromReceipt(ctx, loaded, attempt, receipt);
    }
    const latest = loaded.attempts.at(-1);
    const outcome = latest ? await followUnmined(ctx, loaded, latest) : 'waiting';
    if (outcome === 'waiting') await touchOperation(db, operationId, isoNow(ctx.now()));
    return outcome;
  } catch (error) {
    log('error', 'following a settlement failed; next run retries', { operation_id: operationId, tenant_id: loaded.operation.tenantId, chain_id: loaded.operation.chainId, reason: reasonOf(error) });
    await touchOperation(db, operationId, isoNow(ctx.now()));
    return 'error';
  }
}

/**
 * The receipts job (every minute): follows every submitted operation, and re-enqueues queued ones
 * whose message was lost. Bounded per run; operations on an unreachable chain are retried next run.
 */
export async function followSettlements(ctx: ShardContext): Promise<FollowSummary> {
  const { db } = ctx;
  const now = ctx.now();
  const staleBefore = isoNow(new Date(now.getTime() - STRANDED_AFTER_SECONDS * 1000));
  const [submitted, stranded] = await db.batch([submittedOperations(db, FOLLOW_LIMIT), strandedOperations(db, staleBefore, isoNow(now), FOLLOW_LIMIT)]);
  const summary: FollowSummary = { succeeded: 0, failed: 0, waiting: 0, replaced: 0, rebroadcast: 0, nonce_lost: 0, error: 0, requeued: stranded.length };
  const outcomes = await Promise.all(submitted.map((row) => followOperation(ctx, row.id)));
  for (const outcome of outcomes) summary[outcome] += 1;
  await enqueueOperations(ctx, stranded.map((row) => row.id));
  return summary;
}
