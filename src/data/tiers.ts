import { and, asc, count, eq, notExists } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, rewards, tenants, tierRules } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';
import { tierStandingXp } from './customer-tiers';

export type TierValues = { tierName: string; minXpThreshold: number; benefitsDescription: string; color: string; icon: string };

/** The tenant brief every tier rule carries; batch it with the tier query. */
export function tenantBriefQuery(db: Database, tenantId: string) {
  return db.select({ id: tenants.id, name: tenants.name, slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
}

/** A page of tier rules, lowest threshold first, and the total (query builders for one batch). */
export function tierPageQueries(db: Database, tenantId: string, filters: { tierName?: string }, params: PageParams) {
  const where = and(eq(tierRules.tenantId, tenantId), filters.tierName === undefined ? undefined : eq(tierRules.tierName, filters.tierName));
  return [
    db
      .select()
      .from(tierRules)
      .where(where)
      .orderBy(asc(tierRules.minXpThreshold), asc(tierRules.createdAt), asc(tierRules.id))
      .limit(params.limit)
      .offset(offsetOf(params)),
    db.select({ value: count() }).from(tierRules).where(where),
  ] as const;
}

/** The ids of every tier rule of the tenant (also those that place no one: a cohort may name any). */
export function tierIdsQuery(db: Database, tenantId: string) {
  return db.select({ id: tierRules.id }).from(tierRules).where(eq(tierRules.tenantId, tenantId));
}

export function insertTierQuery(db: Database, tenantId: string, id: string, values: TierValues, now: string) {
  return db.insert(tierRules).values({ id, tenantId, ...values, createdAt: now, updatedAt: now }).returning();
}

/** Replaces every field of the rule; false when the tenant has no such tier. */
export async function replaceTier(db: Database, tenantId: string, id: string, values: TierValues, now: string): Promise<boolean> {
  const rows = await db
    .update(tierRules)
    .set({ ...values, updatedAt: now })
    .where(and(eq(tierRules.id, id), eq(tierRules.tenantId, tenantId)))
    .returning({ id: tierRules.id });
  return rows.length > 0;
}

/**
 * Deletes the tier unless a reward still requires it or a customer holds it (tiers on
 * earned_in_period), in one batch: whether it existed, who names it, and the conditional delete
 * all see the same state.
 */
export async function deleteTierIfUnreferenced(db: Database, tenantId: string, id: string) {
  const referencing = and(eq(rewards.tenantId, tenantId), eq(rewards.minTierId, id));
  const holding = and(eq(customers.tenantId, tenantId), eq(customers.tierId, id));
  const [found, [references], [holders]] = await db.batch([
    db.select({ id: tierRules.id }).from(tierRules).where(and(eq(tierRules.id, id), eq(tierRules.tenantId, tenantId))).limit(1),
    db.select({ value: count() }).from(rewards).where(referencing),
    db.select({ value: count() }).from(customers).where(holding),
    db
      .delete(tierRules)
      .where(
        and(
          eq(tierRules.id, id),
          eq(tierRules.tenantId, tenantId),
          notExists(db.select({ id: rewards.id }).from(rewards).where(referencing)),
          notExists(db.select({ id: customers.id }).from(customers).where(holding)),
        ),
      ),
  ]);
  return { found: found.length > 0, rewardReferences: references?.value ?? 0, holders: holders?.value ?? 0 };
}

/** The customer's tier standing (data/customer-tiers.ts) and the tier's threshold, both tenant-scoped, in one round trip. */
export async function eligibilityFacts(db: Database, tenantId: string, userId: string, tierId: string) {
  const [[customer], [tier]] = await db.batch([
    db.select({ tierStandingXp }).from(customers).where(and(eq(customers.id, userId), eq(customers.tenantId, tenantId))).limit(1),
    db.select({ minXpThreshold: tierRules.minXpThreshold }).from(tierRules).where(and(eq(tierRules.id, tierId), eq(tierRules.tenantId, tenantId))).limit(1),
  ]);
  return { customer, tier };
}
