import { and, asc, eq, exists, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  blockchainTransactionLinks,
  blockchainTransactions,
  onchainAssets,
  onchainContracts,
  onchainOperations,
  type BlockchainTransaction,
  type BlockchainTransactionStatus,
  type OnchainOperation,
} from '../db/schema';
import { violatesUnique } from './db-errors';
import { namedBatch } from './named-batch';
import { runBatch } from './settlement-outcomes';

/**
 * An operation with its asset, its signed attempts (oldest first) and which tenant holds the
 * asset's contract (null: nobody yet, e.g. a deploy not signed): what settling it needs.
 */
export async function loadOperation(db: Database, operationId: string) {
  // Separate statements, not a join: D1 batch rows are objects, so same-named columns would collide.
  const assetOf = db.select({ id: onchainOperations.onchainAssetId }).from(onchainOperations).where(eq(onchainOperations.id, operationId));
  const [ops, assets, attempts, owners] = await db.batch([
    db.select().from(onchainOperations).where(eq(onchainOperations.id, operationId)).limit(1),
    db.select().from(onchainAssets).where(inArray(onchainAssets.id, assetOf)),
    db.select().from(blockchainTransactions).where(eq(blockchainTransactions.operationId, operationId)).orderBy(asc(blockchainTransactions.attempt)),
    db.select({ tenantId: onchainContracts.tenantId }).from(onchainContracts).innerJoin(onchainAssets, and(eq(onchainContracts.chainId, onchainAssets.chainId), eq(onchainContracts.address, onchainAssets.assetAddress)))
      .where(inArray(onchainAssets.id, assetOf)).limit(1),
  ]);
  const operation = ops[0];
  const asset = assets.find((row) => row.tenantId === operation?.tenantId);
  return operation && asset ? { operation, asset, attempts, contractOwner: owners[0]?.tenantId ?? null } : undefined;
}

export type LoadedOperation = NonNullable<Awaited<ReturnType<typeof loadOperation>>>;

/**
 * Writes the nonce the directory gave the operation (data/relayer-nonces.ts) into its shard row,
 * unless it has one: the nonce the row holds after.
 */
export async function writeNonce(db: Database, operationId: string, nonce: number, relayer: string, now: string): Promise<number> {
  const { stored } = await namedBatch(db, {
    written: db.update(onchainOperations).set({ nonce, relayerAddress: relayer, updatedAt: now }).where(and(eq(onchainOperations.id, operationId), isNull(onchainOperations.nonce))),
    stored: db.select({ nonce: onchainOperations.nonce }).from(onchainOperations).where(eq(onchainOperations.id, operationId)),
  });
  const [row] = stored;
  if (row?.nonce === null || row?.nonce === undefined) throw new Error(`operation ${operationId} got no nonce`);
  return row.nonce;
}

export type SignedAttempt = {
  id: string;
  attempt: number;
  hash: string;
  raw: string;
  from: string;
  to: string | null;
  data: string;
  nonce: number;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  /** A deploy's contract address, known from the relayer and the nonce before it is sent. */
  contractAddress?: string;
};

/**
 * A deploy claims its contract for the tenant when it is signed, before the contract exists, so no
 * other tenant can register it between its mining and the receipt. The address follows from the
 * relayer's nonce, so on one chain history only this deploy can ever hold it: a claim already there
 * is left from a chain that was reset (a local node), and is taken over.
 */
function claimDeployedContract(db: Database, operation: OnchainOperation, address: string) {
  return db.insert(onchainContracts).values({ chainId: operation.chainId, address, tenantId: operation.tenantId, origin: 'deployed' })
    .onConflictDoUpdate({ target: [onchainContracts.chainId, onchainContracts.address], set: { tenantId: operation.tenantId, origin: 'deployed' } });
}

/**
 * Records a signed transaction BEFORE it is broadcast (so a retry re-sends these bytes instead of
 * signing anew), links it to the internal transaction, and marks the operation submitted; a
 * replacement marks the attempt it replaces. False when another consumer recorded this attempt
 * number first (the unique index on operation and attempt): the caller re-sends theirs.
 */
export async function recordAttempt(db: Database, operation: OnchainOperation, signed: SignedAttempt, now: string, replaces?: string): Promise<boolean> {
  const statements = [
    db.insert(blockchainTransactions).values({
      id: signed.id,
      tenantId: operation.tenantId,
      chainId: operation.chainId,
      metadata: { operation: operation.kind, operation_id: operation.id },
      txData: signed.data,
      txFrom: signed.from,
      txTo: signed.to,
      txGasLimit: String(signed.gas),
      txMaxFeePerGas: String(signed.maxFeePerGas),
      txMaxPriorityFeePerGas: String(signed.maxPriorityFeePerGas),
      txNonce: signed.nonce,
      txType: 2,
      txValue: '0',
      txHash: signed.hash,
      txnStatus: 'initialized',
      operationId: operation.id,
      attempt: signed.attempt,
      rawTransaction: signed.raw,
      createdAt: now,
      updatedAt: now,
    }),
    db.update(onchainOperations).set({ status: 'submitted', updatedAt: now }).where(and(eq(onchainOperations.id, operation.id), inArray(onchainOperations.status, ['queued', 'submitted']))),
    ...(operation.internalTransactionId
      ? [db.insert(blockchainTransactionLinks).values({ id: `btl_${signed.id}`, tenantId: operation.tenantId, internalTransactionId: operation.internalTransactionId, blockchainTransactionId: signed.id, createdAt: now })]
      : []),
    ...(operation.kind === 'deploy'
      ? [db.update(onchainAssets).set({ deployTxHash: signed.hash, updatedAt: now }).where(and(eq(onchainAssets.id, operation.onchainAssetId), eq(onchainAssets.status, 'deploying')))]
      : []),
    ...(signed.contractAddress ? [claimDeployedContract(db, operation, signed.contractAddress)] : []),
    ...(replaces ? [db.update(blockchainTransactions).set({ txnStatus: 'replaced', updatedAt: now }).where(eq(blockchainTransactions.id, replaces))] : []),
  ];
  try {
    await runBatch(db, statements);
    return true;
  } catch (error) {
    if (violatesUnique(error, 'blockchain_transactions.operation_id')) return false;
    throw error;
  }
}

/** Moves an attempt forward (submitted, pending); never back from a final status. */
export async function markAttempt(db: Database, attempt: Pick<BlockchainTransaction, 'id'>, status: BlockchainTransactionStatus, now: string): Promise<void> {
  await db.update(blockchainTransactions).set({ txnStatus: status, updatedAt: now })
    .where(and(eq(blockchainTransactions.id, attempt.id), inArray(blockchainTransactions.txnStatus, ['initialized', 'submitted', 'pending'])));
}

/** A failed try to reach the chain: counted, explained, and the next one not before `retryAt`. */
export async function recordOperationError(db: Database, operationId: string, message: string, times: { retryAt: string; now: string }): Promise<number> {
  const [row] = await db.update(onchainOperations)
    .set({ errorCount: sql`${onchainOperations.errorCount} + 1`, lastError: message.slice(0, 500), nextAttemptAt: times.retryAt, updatedAt: times.now })
    .where(eq(onchainOperations.id, operationId))
    .returning({ errorCount: onchainOperations.errorCount });
  return row?.errorCount ?? 0;
}

/** Operations whose attempts the receipts job follows, least recently looked at first. */
export function submittedOperations(db: Database, limit: number) {
  return db.select({ id: onchainOperations.id }).from(onchainOperations)
    .where(eq(onchainOperations.status, 'submitted')).orderBy(asc(onchainOperations.updatedAt)).limit(limit);
}

/** Queued operations that no consumer has touched since `staleBefore` (lost message, failed send): to enqueue again. */
export function strandedOperations(db: Database, staleBefore: string, now: string, limit: number) {
  return db.select({ id: onchainOperations.id }).from(onchainOperations)
    .where(and(eq(onchainOperations.status, 'queued'), lte(onchainOperations.updatedAt, staleBefore), or(isNull(onchainOperations.nextAttemptAt), lte(onchainOperations.nextAttemptAt, now))))
    .orderBy(asc(onchainOperations.updatedAt)).limit(limit);
}

/** Marks an operation as looked at, so the receipts job goes round all of them. */
export async function touchOperation(db: Database, operationId: string, now: string): Promise<void> {
  await db.update(onchainOperations).set({ updatedAt: now }).where(eq(onchainOperations.id, operationId));
}
