import { and, count, desc, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { onchainAssets, redemptions, rewards, tierRules, type Reward } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';

export type RewardInsert = typeof rewards.$inferInsert;
export type RewardChanges = Partial<Omit<RewardInsert, 'id' | 'tenantId' | 'createdAt'>>;

const ofTenant = (tenantId: string, id: string) => and(eq(rewards.id, id), eq(rewards.tenantId, tenantId));

/** Newest first, optionally one status. */
export async function listRewards(db: Database, tenantId: string, params: PageParams & { status?: Reward['status'] }) {
  const where = and(eq(rewards.tenantId, tenantId), params.status ? eq(rewards.status, params.status) : undefined);
  const [rows, [total]] = await db.batch([
    db.select().from(rewards).where(where).orderBy(desc(rewards.createdAt), desc(rewards.id)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(rewards).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

export async function findReward(db: Database, tenantId: string, id: string): Promise<Reward | undefined> {
  const [row] = await db.select().from(rewards).where(ofTenant(tenantId, id)).limit(1);
  return row;
}

/**
 * Which of the given tier and asset ids exist in the tenant (ids not given are reported as found),
 * together with the reward itself when `rewardId` is given: one round trip.
 */
export async function findRewardAndReferences(db: Database, tenantId: string, refs: { rewardId?: string; minTierId?: string | null; onchainAssetId?: string | null }) {
  const [reward, tiers, assets] = await db.batch([
    db.select().from(rewards).where(ofTenant(tenantId, refs.rewardId ?? '')).limit(1),
    db.select({ id: tierRules.id }).from(tierRules).where(and(eq(tierRules.id, refs.minTierId ?? ''), eq(tierRules.tenantId, tenantId))).limit(1),
    db.select({ id: onchainAssets.id }).from(onchainAssets).where(and(eq(onchainAssets.id, refs.onchainAssetId ?? ''), eq(onchainAssets.tenantId, tenantId))).limit(1),
  ]);
  return {
    reward: reward[0],
    tierFound: !refs.minTierId || tiers.length > 0,
    assetFound: !refs.onchainAssetId || assets.length > 0,
  };
}

export async function insertReward(db: Database, values: RewardInsert): Promise<Reward> {
  const [row] = await db.insert(rewards).values(values).returning();
  if (!row) throw new Error('reward insert returned nothing');
  return row;
}

/**
 * Applies the changes; with `fromStatus`, only while the reward still has that status (a status move
 * checked against a status read earlier must not land on one changed meanwhile). Undefined when no row matched.
 */
export async function updateReward(db: Database, tenantId: string, id: string, changes: RewardChanges, fromStatus?: Reward['status']): Promise<Reward | undefined> {
  const where = and(ofTenant(tenantId, id), fromStatus === undefined ? undefined : eq(rewards.status, fromStatus));
  const [row] = await db.update(rewards).set(changes).where(where).returning();
  return row;
}

/**
 * Deletes a reward that was never redeemed, in one statement (a redemption cannot slip in between
 * the check and the delete). Tells apart a deleted, a redeemed and a missing reward.
 */
export async function deleteUnredeemedReward(db: Database, tenantId: string, id: string): Promise<'deleted' | 'redeemed' | 'missing'> {
  const redeemed = db
    .select({ one: sql`1` })
    .from(redemptions)
    .where(and(eq(redemptions.tenantId, tenantId), eq(redemptions.rewardId, id)));
  const [deleted, remaining] = await db.batch([
    db.delete(rewards).where(and(ofTenant(tenantId, id), notExists(redeemed))).returning({ id: rewards.id }),
    db.select({ id: rewards.id }).from(rewards).where(ofTenant(tenantId, id)).limit(1),
  ]);
  if (deleted.length > 0) return 'deleted';
  return remaining.length > 0 ? 'redeemed' : 'missing';
}
