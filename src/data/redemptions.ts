import { and, desc, eq, exists, getTableColumns, gte, inArray, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { customers, internalWallets, onchainAssets, redemptionGuard, redemptions, rewards, tenants, tierRules, type Redemption } from '../db/schema';
import { EARNING_STATUSES } from '../domain/ledger';
import type { PageParams } from '../lib/paging';
import type { RedemptionDetails } from '../views/redemption';
import { violatesCheck, violatesUnique } from './db-errors';
import { ownedBy } from './scoping';
import { listTotalQuery, newestFirstPage } from './tenant-counts';

/** The customer, the reward and the reward's minimum tier, as the pre-redemption checks need them (and the tenant, as the view shows it). */
export async function loadRedemptionCandidate(db: Database, tenantId: string, userId: string, rewardId: string) {
  const reward = and(eq(rewards.id, rewardId), eq(rewards.tenantId, tenantId));
  const [customerRows, rewardRows, tierRows, assetRows, walletRows, tenantRows] = await db.batch([
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
    db.select({ id: tenants.id, name: tenants.name, slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)).limit(1),
  ]);
  return { customer: customerRows[0], reward: rewardRows[0], minTier: tierRows[0], asset: assetRows[0], wallet: walletRows[0], tenant: tenantRows[0] };
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

/**
 * SQL for a statement after a redemption's writes in the same batch: true when the redemption was
 * written `completed` and its reward, customer and tenant still show what `details` (read before
 * the batch) shows, so the view rendered from them before the batch is the redemption's view.
 */
export function redemptionShowsAsRead(db: Database, tenantId: string, redemptionId: string, { reward, customer, tenant }: RedemptionDetails) {
  const same = (column: SQLiteColumn, value: string | null) => sql`${column} is ${value}`;
  return exists(
    db
      .select({ one: sql`1` })
      .from(redemptions)
      .innerJoin(rewards, and(eq(rewards.id, redemptions.rewardId), eq(rewards.tenantId, tenantId)))
      .innerJoin(customers, and(eq(customers.id, redemptions.userId), eq(customers.tenantId, tenantId)))
      .innerJoin(tenants, eq(tenants.id, redemptions.tenantId))
      .where(
        and(
          eq(redemptions.id, redemptionId),
          eq(redemptions.tenantId, tenantId),
          eq(redemptions.status, 'completed'),
          eq(rewards.title, reward.title),
          same(rewards.description, reward.description),
          eq(rewards.status, reward.status),
          eq(rewards.xpCost, reward.xpCost),
          same(rewards.onchainAssetId, reward.onchainAssetId),
          same(customers.username, customer.username),
          same(customers.email, customer.email),
          eq(tenants.name, tenant.name),
          eq(tenants.slug, tenant.slug),
        ),
      ),
  );
}

export const isRedemptionRejected = (error: unknown) => violatesCheck(error, 'redemption_not_allowed');
export const isOutOfStock = (error: unknown) => violatesCheck(error, 'reward_stock_never_negative');
/** A second refund of one redemption (internal_transactions_one_refund_per_redemption). */
export const isAlreadyRefunded = (error: unknown) => violatesUnique(error, 'internal_transactions.redemption_id');

/**
 * The statements that read the tenant's redemptions matching `where` (one page of them, newest
 * first, when `page` is given) together with everything their view shows, for one D1 batch; they
 * may follow writes in the same batch. Read the results with `assembleRedemptions`. Every
 * statement finds its rows by id from the page's ids (ownedBy: never by walking the tenant). The
 * customer's and tenant's briefs ride on the redemption rows (names that no redemption column has:
 * batch rows are objects, so a repeated column name would be lost).
 */
export function redemptionReadQueries(db: Database, tenantId: string, where: SQL | undefined, page?: PageParams) {
  const window = page
    ? newestFirstPage(db, redemptions, tenantId, where, page)
    : { where: and(eq(redemptions.tenantId, tenantId), where), orderBy: desc(redemptions.seq), offset: 0 };
  const ids = db.select({ id: redemptions.id }).from(redemptions).where(window.where).orderBy(window.orderBy).$dynamic();
  const onPage = and(ownedBy(redemptions.tenantId, tenantId), inArray(redemptions.id, page ? ids.limit(page.limit).offset(window.offset) : ids));
  const selected = (column: SQLiteColumn) => db.select({ id: column }).from(redemptions).where(onPage);
  const rewardOf = (column: SQLiteColumn) =>
    db.select({ id: column }).from(rewards).where(and(ownedBy(rewards.tenantId, tenantId), inArray(rewards.id, selected(redemptions.rewardId))));
  return [
    db
      .select({ ...getTableColumns(redemptions), username: customers.username, email: customers.email, tenantName: tenants.name, tenantSlug: tenants.slug })
      .from(redemptions)
      .innerJoin(customers, and(eq(customers.tenantId, redemptions.tenantId), eq(customers.id, redemptions.userId)))
      .innerJoin(tenants, eq(tenants.id, redemptions.tenantId))
      .where(onPage)
      .orderBy(desc(redemptions.seq)),
    db.select().from(rewards).where(and(ownedBy(rewards.tenantId, tenantId), inArray(rewards.id, selected(redemptions.rewardId)))),
    db.select().from(onchainAssets).where(and(ownedBy(onchainAssets.tenantId, tenantId), inArray(onchainAssets.id, rewardOf(rewards.onchainAssetId)))),
  ] as const;
}

type ReadQueries = ReturnType<typeof redemptionReadQueries>;
export type RedemptionReadRows = readonly [Awaited<ReadQueries[0]>, Awaited<ReadQueries[1]>, Awaited<ReadQueries[2]>];

export type RedemptionWithDetails = { redemption: Redemption; details: RedemptionDetails };

export function assembleRedemptions([rows, rewardRows, assetRows]: RedemptionReadRows): RedemptionWithDetails[] {
  return rows.map(({ username, email, tenantName, tenantSlug, ...redemption }) => {
    const reward = rewardRows.find((row) => row.id === redemption.rewardId);
    // Rewards with redemptions cannot be deleted.
    if (!reward) throw new Error(`redemption ${redemption.id} lost its reward`);
    const asset = assetRows.find((row) => row.id === reward.onchainAssetId);
    const customer = { id: redemption.userId, username, email };
    const tenant = { id: redemption.tenantId, name: tenantName, slug: tenantSlug };
    return { redemption, details: { reward, asset, customer, tenant } };
  });
}

export async function findRedemption(db: Database, tenantId: string, id: string): Promise<RedemptionWithDetails | undefined> {
  return assembleRedemptions(await db.batch(redemptionReadQueries(db, tenantId, eq(redemptions.id, id))))[0];
}

export type RedemptionFilters = { status?: Redemption['status']; userId?: string; rewardId?: string };

/** Status alone is a maintained count; a customer's or a reward's redemptions are counted on their index. */
export async function listRedemptions(db: Database, tenantId: string, filters: RedemptionFilters, page: PageParams) {
  const narrowing = and(
    filters.userId ? eq(redemptions.userId, filters.userId) : undefined,
    filters.rewardId ? eq(redemptions.rewardId, filters.rewardId) : undefined,
  );
  const where = and(filters.status ? eq(redemptions.status, filters.status) : undefined, narrowing);
  const [[total], ...read] = await db.batch([
    listTotalQuery(db, redemptions, 'redemptions', tenantId, {
      bucket: { status: filters.status },
      live: narrowing && and(eq(redemptions.tenantId, tenantId), where),
    }),
    ...redemptionReadQueries(db, tenantId, where, page),
  ]);
  return { items: assembleRedemptions(read), total: total?.value ?? 0 };
}

/** The bare row, for a status move. */
export async function findRedemptionRow(db: Database, tenantId: string, id: string): Promise<Redemption | undefined> {
  const [row] = await db.select().from(redemptions).where(and(eq(redemptions.id, id), eq(redemptions.tenantId, tenantId))).limit(1);
  return row;
}
