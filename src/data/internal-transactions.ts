import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  blockchainTransactionLinks,
  blockchainTransactions,
  internalTransactions,
  onchainAssets,
  redemptions,
  rewards,
  type InternalTransaction,
} from '../db/schema';
import type { InternalTransactionDetails } from '../views/internal-transaction';

/**
 * D1 batches return rows as objects, so two selected columns with one SQL name collapse: alias them.
 *
 * The statements that load what hangs off the transactions selected by `txWhere` (assets, rewards
 * of redeem rows, blockchain transactions), to be run in one batch with the caller's own query.
 */
export function detailQueries(db: Database, tenantId: string, txWhere: SQL) {
  const selected = db.select({ id: internalTransactions.id }).from(internalTransactions).where(txWhere);
  return [
    db
      .select()
      .from(onchainAssets)
      .where(
        and(
          eq(onchainAssets.tenantId, tenantId),
          inArray(onchainAssets.id, db.select({ id: internalTransactions.onchainAssetId }).from(internalTransactions).where(txWhere)),
        ),
      ),
    db
      .select({ redemptionId: sql<string>`${redemptions.id}`.as('redemption_id'), id: rewards.id, title: rewards.title })
      .from(redemptions)
      .innerJoin(rewards, and(eq(rewards.id, redemptions.rewardId), eq(rewards.tenantId, tenantId)))
      .where(
        and(
          eq(redemptions.tenantId, tenantId),
          inArray(redemptions.id, db.select({ id: internalTransactions.redemptionId }).from(internalTransactions).where(txWhere)),
        ),
      ),
    db
      .select({ internalTransactionId: blockchainTransactionLinks.internalTransactionId, chainTx: blockchainTransactions })
      .from(blockchainTransactionLinks)
      .innerJoin(
        blockchainTransactions,
        and(eq(blockchainTransactions.id, blockchainTransactionLinks.blockchainTransactionId), eq(blockchainTransactions.tenantId, tenantId)),
      )
      .where(and(eq(blockchainTransactionLinks.tenantId, tenantId), inArray(blockchainTransactionLinks.internalTransactionId, selected)))
      .orderBy(asc(blockchainTransactions.createdAt)),
  ] as const;
}

type Queries = ReturnType<typeof detailQueries>;
export type DetailRows = readonly [Awaited<Queries[0]>, Awaited<Queries[1]>, Awaited<Queries[2]>];

export function attachDetails(tx: InternalTransaction, [assets, rewardRows, chainRows]: DetailRows): InternalTransactionDetails {
  return {
    asset: assets.find((asset) => asset.id === tx.onchainAssetId),
    reward: rewardRows.filter((row) => row.redemptionId === tx.redemptionId).map(({ id, title }) => ({ id, title }))[0],
    blockchainTransactions: chainRows.filter((row) => row.internalTransactionId === tx.id).map((row) => row.chainTx),
  };
}

/** One transaction of the tenant with its details, in one D1 round trip. */
export async function findInternalTransaction(db: Database, tenantId: string, id: string) {
  const where = and(eq(internalTransactions.id, id), eq(internalTransactions.tenantId, tenantId))!;
  const [rows, ...details] = await db.batch([db.select().from(internalTransactions).where(where).limit(1), ...detailQueries(db, tenantId, where)]);
  const tx = rows[0];
  return tx ? { tx, details: attachDetails(tx, details) } : undefined;
}
