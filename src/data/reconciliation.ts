import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customerAssetBalances, internalTransactions, internalWallets, onchainOperations } from '../db/schema';

/**
 * Aggregated reads for reconciliation: one row per customer (or recipient), never one per
 * transaction. Base-unit amounts are strings that may exceed 2^53, and SQLite's SUM over text goes
 * through REAL, so those rows carry the amounts joined by commas for the service to add with
 * BigInt; whole XP amounts are integers, which SUM adds exactly.
 */

/** The custodial wallet of a customer, joined on the same tenant. */
const walletOf = (userId: typeof internalTransactions.userId) =>
  and(eq(internalWallets.tenantId, internalTransactions.tenantId), eq(internalWallets.userId, userId), eq(internalWallets.walletKind, 'custodial'));

/**
 * Per customer: the sum of every completed XP entry, mirrored onto the XP token or earned before it
 * (the token must carry all of it), and the customer's wallet.
 */
export async function settledXpPerCustomer(db: Database, tenantId: string) {
  return db
    .select({
      userId: internalTransactions.userId,
      walletAddress: sql<string | null>`min(${internalWallets.address})`,
      xp: sql<string>`cast(sum(${internalTransactions.amount}) as text)`,
    })
    .from(internalTransactions)
    .leftJoin(internalWallets, walletOf(internalTransactions.userId))
    .where(and(eq(internalTransactions.tenantId, tenantId), eq(internalTransactions.status, 'completed')))
    .groupBy(internalTransactions.userId);
}

/** Per customer: the indexed balances of the asset (every token id), comma-joined. */
export async function indexedBalancesPerCustomer(db: Database, tenantId: string, assetId: string) {
  return db
    .select({
      userId: customerAssetBalances.userId,
      walletAddress: sql<string>`min(${customerAssetBalances.userAddress})`,
      balances: sql<string>`group_concat(${customerAssetBalances.balance})`,
    })
    .from(customerAssetBalances)
    .where(and(eq(customerAssetBalances.tenantId, tenantId), eq(customerAssetBalances.onchainAssetId, assetId)))
    .groupBy(customerAssetBalances.userId);
}

/**
 * Per recipient and kind: the amounts of succeeded mints and burns of the asset, comma-joined, with
 * the customer whose custodial wallet the recipient is (recipients are stored as the wallet's address).
 * An operation without an amount counts `defaultAmount` (one token of an erc721 mint).
 */
export async function settledOperationsPerRecipient(db: Database, tenantId: string, assetId: string, defaultAmount: string) {
  return db
    .select({
      recipient: onchainOperations.recipient,
      kind: onchainOperations.kind,
      userId: sql<string | null>`min(${internalWallets.userId})`,
      amounts: sql<string>`group_concat(coalesce(${onchainOperations.amount}, ${defaultAmount}))`,
    })
    .from(onchainOperations)
    .leftJoin(
      internalWallets,
      and(eq(internalWallets.tenantId, onchainOperations.tenantId), eq(internalWallets.address, onchainOperations.recipient), eq(internalWallets.walletKind, 'custodial')),
    )
    .where(
      and(
        eq(onchainOperations.tenantId, tenantId),
        eq(onchainOperations.onchainAssetId, assetId),
        eq(onchainOperations.status, 'succeeded'),
        inArray(onchainOperations.kind, ['mint', 'burn']),
      ),
    )
    .groupBy(onchainOperations.recipient, onchainOperations.kind);
}
