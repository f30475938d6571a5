import { and, count, desc, eq, gte, inArray, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { customers, internalWallets, onchainAssets, redemptionGuard, redemptions, rewards, tenants, tierRules, type Redemption } from '../db/schema';
import { EARNING_STATUSES } from '../domain/ledger';
import { offsetOf, type PageParams } from '../lib/paging';
import type { RedemptionDetails } from '../views/redemption';
import { violatesCheck, violatesUnique } from './db-errors';

const newestFirst = [desc(redemptions.createdAt), desc(redemptions.id)] as const;

/** The customer, the reward and the reward's minimum tier, as the pre-redemption checks need them. */
export async function loadRedemptionCandidate(db: Database, tenantId: string, userId: string, rewardId: string) {
  const reward = and(eq(rewards.id, rewardId), eq(rewards.tenantId, tenantId));
  const [customerRows, rewardRows, tierRows, assetRows, walletRows] = await db.batch([
    db.select().from(customers).where(and(eq(customers.id, userId), eq(customers.tenantId, tenantId))).limit(1),
    db.select().from(rewards).where(reward).limit(1),
    db
      .select()
      .from(tierRules)
      .where(and(eq(tierRules.tenantId, tenantId), inArray(tierRules.id, db.select({ id: rewards.minTierId }).from(rewards).where(reward))))
      .limit(1),
    db.select().from(onchainAssets)
      .where(and(eq(onchainAssets.tenantId, tenantId), inArray(onchainAssets.id, db.select({ id: rewards.onchainAssetId }).from(rewards).where(reward))))
      .limit(1),
    db.select({ address: internalWallets.address }).from(internalWallets).where(and(eq(internalWallets.tenantId, tenantId), eq(internalWallets.userId, userId))).limit(1),
  ]);
  return { customer: customerRows[0], reward: rewardRows[0], minTier: tierRows[0], asset: assetRows[0], wallet: walletRows[0] };
}

/**
 * First statement of a redemption's write batch: aborts the batch unless, at that moment, the
 * customer may spend, the reward is active and the customer reaches its tier (the SQL form of
 * domain/redemptions.ts), so a suspension, an archive or a tier edit cannot race a redemption.
 */
export function redemptionGuardStatement(db: Database, ids: { tenantId: string; redemptionId: string; userId: string; rewardId: string }) {
  const allowed = db
    .select({ one: sql`1` })
    .from(customers)
    .innerJoin(rewards, and(eq(rewards.id, ids.rewardId), eq(rewards.tenantId, ids.tenantId)))
    .leftJoin(tierRules, and(eq(tierRules.id, rewards.minTierId), eq(tierRules.tenantId, ids.tenantId)))
    .where(
      and(
        eq(customers.id, ids.userId),
        eq(customers.tenantId, ids.tenantId),
        inArray(customers.status, [...EARNING_STATUSES]),
        eq(rewards.status, 'active'),
        or(isNull(rewards.minTierId), gte(customers.lifetimeXp, tierRules.minXpThreshold)),
      ),
    );
  return db.insert(redemptionGuard).select(sql`select ${ids.redemptionId} where ${notExists(allowed)}`);
}

/** Moves a limited reward's stock by `delta` (unlimited stock, null, stays null); never below zero by CHECK. */
export function stockChangeStatement(db: Database, tenantId: string, rewardId: string, delta: 1 | -1) {
  return db
    .update(rewards)
    .set({ stock: sql`${rewards.stock} + ${delta}` })
    .where(and(eq(rewards.id, rewardId), eq(rewards.tenantId, tenantId)));
}

export const isRedemptionRejected = (error: unknown) => violatesCheck(error, 'redemption_not_allowed');
export const isOutOfStock = (error: unknown) => violatesCheck(error, 'reward_stock_never_negative');
/** A second refund of one redemption (internal_transactions_one_refund_per_redemption). */
export const isAlreadyRefunded = (error: unknown) => violatesUnique(error, 'internal_transactions.redemption_id');

/**
 * The statements that read the tenant's redemptions matching `where` (one page of them, newest
 * first, when `page` is given) together with everything their view shows, for one D1 batch; they
 * may follow writes in the same batch. Read the results with `assembleRedemptions`.
 */
export function redemptionReadQueries(db: Database, tenantId: string, where: SQL | undefined, page?: PageParams) {
  const scoped = and(eq(redemptions.tenantId, tenantId), where);
  const selected = (column: SQLiteColumn) => {
    const query = db.select({ id: column }).from(redemptions).where(scoped).orderBy(...newestFirst).$dynamic();
    return page ? query.limit(page.limit).offset(offsetOf(page)) : query;
  };
  const rows = db.select().from(redemptions).where(scoped).orderBy(...newestFirst).$dynamic();
  const rewardOf = (column: SQLiteColumn) =>
    db.select({ id: column }).from(rewards).where(and(eq(rewards.tenantId, tenantId), inArray(rewards.id, selected(redemptions.rewardId))));
  return [
    page ? rows.limit(page.limit).offset(offsetOf(page)) : rows,
    db.select().from(rewards).where(and(eq(rewards.tenantId, tenantId), inArray(rewards.id, selected(redemptions.rewardId)))),
    db.select().from(onchainAssets).where(and(eq(onchainAssets.tenantId, tenantId), inArray(onchainAssets.id, rewardOf(rewards.onchainAssetId)))),
    db
      .select({ id: customers.id, username: customers.username, email: customers.email })
      .from(customers)
      .where(and(eq(customers.tenantId, tenantId), inArray(customers.id, selected(redemptions.userId)))),
    db.select({ id: tenants.id, name: tenants.name, slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)),
  ] as const;
}

type ReadQueries = ReturnType<typeof redemptionReadQueries>;
export type RedemptionReadRows = readonly [
  Awaited<ReadQueries[0]>,
  Awaited<ReadQueries[1]>,
  Awaited<ReadQueries[2]>,
  Awaited<ReadQueries[3]>,
  Awaited<ReadQueries[4]>,
];

export type RedemptionWithDetails = { redemption: Redemption; details: RedemptionDetails };

export function assembleRedemptions([rows, rewardRows, assetRows, customerRows, tenantRows]: RedemptionReadRows): RedemptionWithDetails[] {
  const tenant = tenantRows[0];
  return rows.map((redemption) => {
    const reward = rewardRows.find((row) => row.id === redemption.rewardId);
    const customer = customerRows.find((row) => row.id === redemption.userId);
    // Rewards with redemptions cannot be deleted and customers are never deleted.
    if (!tenant || !reward || !customer) throw new Error(`redemption ${redemption.id} lost its reward, customer or tenant`);
    const asset = assetRows.find((row) => row.id === reward.onchainAssetId);
    return { redemption, details: { reward, asset, customer, tenant } };
  });
}

export async function findRedemption(db: Database, tenantId: string, id: string): Promise<RedemptionWithDetails | undefined> {
  return assembleRedemptions(await db.batch(redemptionReadQueries(db, tenantId, eq(redemptions.id, id))))[0];
}

export type RedemptionFilters = { status?: Redemption['status']; userId?: string; rewardId?: string };

export async function listRedemptions(db: Database, tenantId: string, filters: RedemptionFilters, page: PageParams) {
  const where = and(
    filters.status ? eq(redemptions.status, filters.status) : undefined,
    filters.userId ? eq(redemptions.userId, filters.userId) : undefined,
    filters.rewardId ? eq(redemptions.rewardId, filters.rewardId) : undefined,
  );
  const [[total], ...read] = await db.batch([
    db.select({ value: count() }).from(redemptions).where(and(eq(redemptions.tenantId, tenantId), where)),
    ...redemptionReadQueries(db, tenantId, where, page),
  ]);
  return { items: assembleRedemptions(read), total: total?.value ?? 0 };
}

/** The bare row, for a status move. */
export async function findRedemptionRow(db: Database, tenantId: string, id: string): Promise<Redemption | undefined> {
  const [row] = await db.select().from(redemptions).where(and(eq(redemptions.id, id), eq(redemptions.tenantId, tenantId))).limit(1);
  return row;
}
