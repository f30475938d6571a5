import { and, eq, inArray, ne, notExists, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { blockchainTransactions, customers, internalTransactions, onchainAssets, onchainOperations, pointLots, redemptions, rewards, type OnchainOperation } from '../db/schema';
import { LIFETIME_XP_TYPES } from '../domain/ledger';

const unsettled = ['initialized', 'pending'] as const;

const isOpening = (operation: Pick<OnchainOperation, 'kind'>) => operation.kind === 'opening_mint' || operation.kind === 'opening_burn';

/**
 * The lifetime XP an internal transaction makes, in SQL: `lifetimeDelta` of src/domain/ledger.ts
 * (a positive amount of one of LIFETIME_XP_TYPES, else 0), built from the domain's own list.
 */
export const lifetimeXpOfEntry = sql<number>`case when ${internalTransactions.amount} > 0 and ${inArray(internalTransactions.type, LIFETIME_XP_TYPES)} then ${internalTransactions.amount} else 0 end`;

/** What an outcome needs to know of its operation. */
type OperationRef = Pick<OnchainOperation, 'id' | 'tenantId' | 'kind' | 'onchainAssetId' | 'internalTransactionId'>;

/** Runs statement lists built below as one D1 batch (one transaction). */
export async function runBatch(db: Database, statements: BatchItem<'sqlite'>[]): Promise<void> {
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/** What the receipt of the deciding attempt said, as stored on the blockchain transaction. */
export type ReceiptFields = {
  attemptId: string;
  succeeded: boolean;
  blockHash: string;
  blockNumber: bigint;
  blockTimestamp: number;
  gasPrice: bigint;
  gasUsed: bigint;
  transactionIndex: number;
  contractAddress?: string | null;
};

/** The deciding attempt gets its receipt; every other attempt of the operation was replaced by it. */
function attemptStatements(db: Database, operationId: string, receipt: ReceiptFields, now: string) {
  return [
    db.update(blockchainTransactions).set({
      txnStatus: receipt.succeeded ? 'succeeded' : 'failed',
      receiptBlockHash: receipt.blockHash,
      receiptBlockNumber: String(receipt.blockNumber),
      receiptBlockTimestamp: receipt.blockTimestamp,
      receiptGasPrice: String(receipt.gasPrice),
      receiptGasUsed: String(receipt.gasUsed),
      receiptStatus: receipt.succeeded ? 1 : 0,
      receiptTransactionIndex: receipt.transactionIndex,
      ...(receipt.contractAddress ? { txTo: receipt.contractAddress } : {}),
      updatedAt: now,
    }).where(eq(blockchainTransactions.id, receipt.attemptId)),
    db.update(blockchainTransactions).set({ txnStatus: 'replaced', updatedAt: now })
      .where(and(eq(blockchainTransactions.operationId, operationId), ne(blockchainTransactions.id, receipt.attemptId))),
  ];
}

/**
 * An operation succeeded: its internal transaction completes once every operation behind it has
 * succeeded (a credit moves balance and lifetime XP only now), its redemption with it, operations
 * waiting for it are queued, and a deploy activates its asset. Every statement is conditional on
 * the state it moves from, so applying an outcome twice changes nothing. `now` stamps every change.
 */
export function succeededStatements(db: Database, operation: OperationRef, receipt: ReceiptFields | undefined, now: string): BatchItem<'sqlite'>[] {
  const txId = operation.internalTransactionId ?? '';
  const openSiblings = db.select({ one: sql`1` }).from(onchainOperations)
    .where(and(eq(onchainOperations.internalTransactionId, txId), eq(onchainOperations.tenantId, operation.tenantId), ne(onchainOperations.status, 'succeeded')));
  const completing = and(eq(internalTransactions.id, txId), eq(internalTransactions.tenantId, operation.tenantId), inArray(internalTransactions.status, [...unsettled]), notExists(openSiblings));
  // A credit moves the balance by what its lot still holds (a pending credit reversed in part mints only the rest).
  const lotLeft = sql`(select ${pointLots.remaining} from ${pointLots} where ${pointLots.internalTransactionId} = ${internalTransactions.id} and ${pointLots.status} = 'pending')`;
  const credit = db.select({ amount: sql`case when ${internalTransactions.amount} > 0 then coalesce(${lotLeft}, ${internalTransactions.amount}) else 0 end` }).from(internalTransactions).where(completing);
  const lifetime = db.select({ amount: lifetimeXpOfEntry }).from(internalTransactions).where(completing);
  const owner = db.select({ userId: internalTransactions.userId }).from(internalTransactions).where(completing);
  const redemptionOf = db.select({ id: internalTransactions.redemptionId }).from(internalTransactions)
    .where(and(eq(internalTransactions.id, txId), eq(internalTransactions.status, 'completed')));
  return [
    db.update(onchainOperations).set({ status: 'succeeded', updatedAt: now }).where(and(eq(onchainOperations.id, operation.id), inArray(onchainOperations.status, ['queued', 'submitted']))),
    ...(receipt ? attemptStatements(db, operation.id, receipt, now) : []),
    db.update(onchainOperations).set({ status: 'queued', updatedAt: now }).where(and(eq(onchainOperations.dependsOnOperationId, operation.id), eq(onchainOperations.status, 'waiting'))),
    db.update(customers).set({
      xpBalance: sql`${customers.xpBalance} + coalesce((${credit}), 0)`,
      lifetimeXp: sql`${customers.lifetimeXp} + coalesce((${lifetime}), 0)`,
      updatedAt: now,
    }).where(and(eq(customers.tenantId, operation.tenantId), inArray(customers.id, owner))),
    db.update(internalTransactions).set({ status: 'completed', updatedAt: now }).where(completing),
    db.update(redemptions).set({ status: 'completed', updatedAt: now })
      .where(and(eq(redemptions.tenantId, operation.tenantId), inArray(redemptions.id, redemptionOf), inArray(redemptions.status, ['initialized', 'pending']))),
    ...(operation.kind === 'deploy' && receipt?.contractAddress
      ? [db.update(onchainAssets).set({ status: 'active', assetAddress: receipt.contractAddress, deployedAt: now, updatedAt: now })
          .where(and(eq(onchainAssets.id, operation.onchainAssetId), eq(onchainAssets.status, 'deploying')))]
      : []),
  ];
}

/**
 * An operation failed (reverted, or given up): a debit gives its XP back, the internal transaction
 * and its redemption fail (the redemption's unit of stock comes back), operations waiting for it are
 * canceled, and a deploy leaves its asset `failed`. Conditional like `succeededStatements`.
 */
export function failedStatements(db: Database, operation: OperationRef, receipt: ReceiptFields | undefined, reason: string, now: string): BatchItem<'sqlite'>[] {
  const txId = operation.internalTransactionId ?? '';
  const failing = and(eq(internalTransactions.id, txId), eq(internalTransactions.tenantId, operation.tenantId), inArray(internalTransactions.status, [...unsettled]));
  const refund = db.select({ amount: sql`case when ${internalTransactions.amount} < 0 then -${internalTransactions.amount} else 0 end` }).from(internalTransactions).where(failing);
  const owner = db.select({ userId: internalTransactions.userId }).from(internalTransactions).where(failing);
  const redemptionOf = db.select({ id: internalTransactions.redemptionId }).from(internalTransactions).where(failing);
  const failingRedemption = and(eq(redemptions.tenantId, operation.tenantId), inArray(redemptions.id, redemptionOf), inArray(redemptions.status, ['initialized', 'pending']));
  return [
    db.update(onchainOperations).set({ status: 'failed', lastError: reason.slice(0, 500), updatedAt: now })
      .where(and(eq(onchainOperations.id, operation.id), inArray(onchainOperations.status, ['queued', 'submitted']))),
    ...(receipt ? attemptStatements(db, operation.id, receipt, now) : []),
    db.update(blockchainTransactions).set({ txnStatus: 'canceled', updatedAt: now })
      .where(and(eq(blockchainTransactions.operationId, operation.id), inArray(blockchainTransactions.txnStatus, ['initialized', 'submitted', 'pending']))),
    // Burns waiting for a customer's opening go on and fail by themselves (they have their own XP
    // entry to give back, services/xp-openings.ts); anything else waiting for this is canceled.
    db.update(onchainOperations).set(isOpening(operation) ? { status: 'queued', updatedAt: now } : { status: 'canceled', lastError: `dependency ${operation.id} failed`, updatedAt: now })
      .where(and(eq(onchainOperations.dependsOnOperationId, operation.id), eq(onchainOperations.status, 'waiting'))),
    db.update(customers).set({ xpBalance: sql`${customers.xpBalance} + coalesce((${refund}), 0)`, updatedAt: now })
      .where(and(eq(customers.tenantId, operation.tenantId), inArray(customers.id, owner))),
    // Stock and redemption move before the transaction's status does: both select through `failing`.
    db.update(rewards).set({ stock: sql`${rewards.stock} + 1` })
      .where(and(eq(rewards.tenantId, operation.tenantId), inArray(rewards.id, db.select({ id: redemptions.rewardId }).from(redemptions).where(failingRedemption)))),
    db.update(redemptions).set({ status: 'failed', updatedAt: now }).where(failingRedemption),
    db.update(internalTransactions).set({ status: 'failed', updatedAt: now }).where(failing),
    ...(operation.kind === 'deploy'
      ? [db.update(onchainAssets).set({ status: 'failed', updatedAt: now }).where(and(eq(onchainAssets.id, operation.onchainAssetId), eq(onchainAssets.status, 'deploying')))]
      : []),
  ];
}

/** The first broadcast: the internal transaction and its redemption are now `pending`. */
export function broadcastStatements(db: Database, operation: { tenantId: string; internalTransactionId: string | null }, now: string): BatchItem<'sqlite'>[] {
  const tx = and(eq(internalTransactions.id, operation.internalTransactionId ?? ''), eq(internalTransactions.tenantId, operation.tenantId));
  return [
    db.update(redemptions).set({ status: 'pending', updatedAt: now }).where(and(
      eq(redemptions.tenantId, operation.tenantId),
      inArray(redemptions.id, db.select({ id: internalTransactions.redemptionId }).from(internalTransactions).where(tx)),
      eq(redemptions.status, 'initialized'),
    )),
    db.update(internalTransactions).set({ status: 'pending', updatedAt: now }).where(and(tx, eq(internalTransactions.status, 'initialized'))),
  ];
}

/** Ids of the operations a succeeded one released (to enqueue after the outcome is written). */
export function releasedOperationsQuery(db: Database, operationId: string) {
  return db.select({ id: onchainOperations.id }).from(onchainOperations)
    .where(and(eq(onchainOperations.dependsOnOperationId, operationId), eq(onchainOperations.status, 'queued')));
}
