import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, tierPlacements, tierRules, type Customer } from '../db/schema';
import { tierForLifetimeXp } from '../domain/tiers';

/**
 * The tenant's tier ladder, lowest threshold first: the tiers that place customers, read from the
 * view every trigger reads too (`tier_placements`, src/db/sql/tier-placement.sql), which keeps only
 * the oldest rule of equal thresholds. A query builder: put it in the batch that reads the
 * customers (one query for any set of them).
 *
 * @example
 * const [rows, ladder] = await db.batch([customersQuery, tierLadderQuery(db, tenantId)]);
 * rows.map((customer) => toCustomerView(customer, tierOnLadder(ladder, customer)));
 */
export function tierLadderQuery(db: Database, tenantId: string) {
  return db
    .select({ id: tierRules.id, tierName: tierRules.tierName, minXpThreshold: tierRules.minXpThreshold, places: sql<number>`${tierPlacements.tierId} is not null` })
    .from(tierRules)
    .leftJoin(tierPlacements, eq(tierPlacements.tierId, tierRules.id))
    .where(eq(tierRules.tenantId, tenantId))
    .orderBy(asc(tierRules.minXpThreshold));
}

export type TierLadder = Awaited<ReturnType<typeof tierLadderQuery>>;

/**
 * A customer's tier: the one it holds (tiers on earned_in_period, which may be a tier that places
 * no one since the ladder changed), or the one its lifetime XP places it in; undefined for none.
 */
export function tierOnLadder(ladder: TierLadder, customer: Pick<Customer, 'lifetimeXp' | 'tierHeld' | 'tierId'>): TierLadder[number] | undefined {
  if (customer.tierHeld) return ladder.find((tier) => tier.id === customer.tierId);
  return tierForLifetimeXp(
    customer.lifetimeXp,
    ladder.filter((tier) => tier.places),
  );
}

/**
 * What a tier's threshold is compared with (eligibility, a reward's minimum tier): lifetime XP, or
 * for a held tier its threshold (-1 without one), so a customer reaches exactly the tiers up to its own.
 */
export const tierStandingXp = sql<number>`(case when ${customers.tierHeld} then coalesce((select h.min_xp_threshold from tier_rules h where h.id = ${customers.tierId}), -1) else ${customers.lifetimeXp} end)`;
