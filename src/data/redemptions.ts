import { and, desc, eq, getTableColumns, inArray, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { customers, internalWallets, onchainAssets, redemptions, rewards, tenants, tierRules, type Customer, type OnchainAsset, type Redemption, type Reward, type Tenant } from '../db/schema';
import type { PageParams } from '../lib/paging';
import { tierStandingXp } from './customer-tiers';
import { violatesCheck, violatesUnique } from './db-errors';
import { namedBatch } from './named-batch';
import { reusable, reusableList, type Bound, type Slots } from './reusable-statements';
import { ownedBy } from './scoping';
import { listTotalQuery, newestFirstPage } from './tenant-counts';

export type RedemptionIds = { tenantId: string; userId: string; rewardId: string };

type Candidate = Slots<RedemptionIds>;
const rewardWhere = ($: Candidate) => and(eq(rewards.id, $.rewardId), eq(rewards.tenantId, $.tenantId));
const candidateReads = {
  customer: reusable((db, $: Candidate) =>
    db
      .select({ ...getTableColumns(customers), tierStandingXp })
      .from(customers)
      .where(and(eq(customers.id, $.userId), eq(customers.tenantId, $.tenantId)))
      .limit(1),
  ),
  reward: reusable((db, $: Candidate) => db.select().from(rewards).where(rewardWhere($)).limit(1)),
  minTier: reusable((db, $: Candidate) =>
    db
      .select()
      .from(tierRules)
      .where(and(eq(tierRules.tenantId, $.tenantId), inArray(tierRules.id, db.select({ id: rewards.minTierId }).from(rewards).where(rewardWhere($)))))
      .limit(1),
  ),
  asset: reusable((db, $: Candidate) =>
    db.select().from(onchainAssets)
      .where(and(eq(onchainAssets.tenantId, $.tenantId), inArray(onchainAssets.id, db.select({ id: rewards.onchainAssetId }).from(rewards).where(rewardWhere($)))))
      .limit(1),
  ),
  wallet: reusable((db, $: Candidate) =>
    db.select({ address: internalWallets.address }).from(internalWallets).where(and(eq(internalWallets.tenantId, $.tenantId), eq(internalWallets.userId, $.userId))).limit(1),
  ),
  tenant: reusable((db, $: Candidate) => db.select({ id: tenants.id, name: tenants.name, slug: tenants.slug }).from(tenants).where(eq(tenants.id, $.tenantId)).limit(1)),
};

/** The customer, the reward and the reward's minimum tier, as the pre-redemption checks need them (and the tenant, as the view shows it). */
export async function loadRedemptionCandidate(db: Database, tenantId: string, userId: string, rewardId: string) {
  const ids = { tenantId, userId, rewardId };
  const rows = await namedBatch(db, {
    customer: candidateReads.customer(db, ids),
    reward: candidateReads.reward(db, ids),
    minTier: candidateReads.minTier(db, ids),
    asset: candidateReads.asset(db, ids),
    wallet: candidateReads.wallet(db, ids),
    tenant: candidateReads.tenant(db, ids),
  });
  return { customer: rows.customer[0], reward: rows.reward[0], minTier: rows.minTier[0], asset: rows.asset[0], wallet: rows.wallet[0], tenant: rows.tenant[0] };
}

export const isRedemptionRejected = (error: unknown) => violatesCheck(error, 'redemption_not_allowed');
export const isOutOfStock = (error: unknown) => violatesCheck(error, 'reward_stock_never_negative');
/** A second refund of one redemption (internal_transactions_one_refund_per_redemption). */
export const isAlreadyRefunded = (error: unknown) => violatesUnique(error, 'internal_transactions.redemption_id');

/**
 * The statements that read the tenant's redemptions matching `where` (one page of them, newest
 * first, when `page` is given) together with everything their view shows, for one D1 batch, as one
 * named group of it (`namedBatch`); they may follow writes in the same batch. Read the group's
 * results with `assembleRedemptions`. Every
 * statement finds its rows by id from the page's ids (ownedBy: never by walking the tenant). The
 * customer's and tenant's briefs ride on the redemption rows (names that no redemption column has:
 * batch rows are objects, so a repeated column name would be lost).
 */
export function redemptionReadQueries(db: Database, tenantId: string, where: SQL | undefined, page?: PageParams) {
  if (!page) return readQueries(db, tenantId, where);
  const window = newestFirstPage(db, redemptions, tenantId, where, page);
  const ids = db.select({ id: redemptions.id }).from(redemptions).where(window.where).orderBy(window.orderBy).limit(page.limit).offset(window.offset);
  return pageReads(db, tenantId, ids);
}

/** redemptionReadQueries of one redemption by id, built once. */
export const redemptionByIdReads = reusableList((db, $: Slots<{ tenantId: string; id: string }>) => readQueries(db, $.tenantId, eq(redemptions.id, $.id)));

/** The first of redemptionByIdReads alone: the row with its customer's and tenant's briefs, for a caller that knows the reward. */
export const redemptionRowById = reusable((db, $: Slots<{ tenantId: string; id: string }>) => readQueries(db, $.tenantId, eq(redemptions.id, $.id))[0]);

function readQueries(db: Database, tenantId: Bound<string>, where: SQL | undefined) {
  return pageReads(db, tenantId, db.select({ id: redemptions.id }).from(redemptions).where(and(eq(redemptions.tenantId, tenantId), where)).orderBy(desc(redemptions.seq)));
}

function pageReads(db: Database, tenantId: Bound<string>, ids: SQLWrapper) {
  const onPage = and(ownedBy(redemptions.tenantId, tenantId), inArray(redemptions.id, ids));
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

type ReadQueries = ReturnType<typeof pageReads>;
export type RedemptionReadRows = readonly [Awaited<ReadQueries[0]>, Awaited<ReadQueries[1]>, Awaited<ReadQueries[2]>];

/** What a redemption's view shows besides the row (src/views/redemption.ts). */
export type RedemptionDetails = {
  reward: Reward;
  /** The asset the reward delivers; undefined for an off-chain reward. */
  asset: OnchainAsset | undefined;
  customer: Pick<Customer, 'id' | 'username' | 'email'>;
  tenant: Pick<Tenant, 'id' | 'name' | 'slug'>;
};

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
  const { read } = await namedBatch(db, { read: redemptionByIdReads(db, { tenantId, id }) });
  return assembleRedemptions(read)[0];
}

export type RedemptionFilters = { status?: Redemption['status']; userId?: string; rewardId?: string };

/** Status alone is a maintained count; a customer's or a reward's redemptions are counted on their index. */
export async function listRedemptions(db: Database, tenantId: string, filters: RedemptionFilters, page: PageParams) {
  const narrowing = and(
    filters.userId ? eq(redemptions.userId, filters.userId) : undefined,
    filters.rewardId ? eq(redemptions.rewardId, filters.rewardId) : undefined,
  );
  const where = and(filters.status ? eq(redemptions.status, filters.status) : undefined, narrowing);
  const { total: [total], read } = await namedBatch(db, {
    total: listTotalQuery(db, redemptions, 'redemptions', tenantId, {
      bucket: { status: filters.status },
      live: narrowing && and(eq(redemptions.tenantId, tenantId), where),
    }),
    read: redemptionReadQueries(db, tenantId, where, page),
  });
  return { items: assembleRedemptions(read), total: total?.value ?? 0 };
}

/** The bare row, for a status move. */
export async function findRedemptionRow(db: Database, tenantId: string, id: string): Promise<Redemption | undefined> {
  const [row] = await db.select().from(redemptions).where(and(eq(redemptions.id, id), eq(redemptions.tenantId, tenantId))).limit(1);
  return row;
}
