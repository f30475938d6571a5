import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customerAssetBalances, internalWallets, onchainAssets } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';

/**
 * A page of a customer's asset balances (newest first), its total, and the assets and wallets the
 * balances refer to: query builders for one batch. Each table is read on its own so no two
 * selected columns share a name (D1 batch rows are objects).
 */
export function customerBalanceQueries(db: Database, tenantId: string, userId: string, params: PageParams) {
  const where = and(eq(customerAssetBalances.tenantId, tenantId), eq(customerAssetBalances.userId, userId));
  return [
    db
      .select()
      .from(customerAssetBalances)
      .where(where)
      .orderBy(desc(customerAssetBalances.createdAt), desc(customerAssetBalances.id))
      .limit(params.limit)
      .offset(offsetOf(params)),
    db.select({ value: count() }).from(customerAssetBalances).where(where),
    db
      .select()
      .from(onchainAssets)
      .where(
        and(
          eq(onchainAssets.tenantId, tenantId),
          inArray(onchainAssets.id, db.select({ id: customerAssetBalances.onchainAssetId }).from(customerAssetBalances).where(where)),
        ),
      ),
    db.select().from(internalWallets).where(and(eq(internalWallets.tenantId, tenantId), eq(internalWallets.userId, userId))),
  ] as const;
}
