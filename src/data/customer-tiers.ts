import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tierPlacements, type Customer } from '../db/schema';
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
    .select({ id: tierPlacements.tierId, tierName: tierPlacements.tierName, minXpThreshold: tierPlacements.minXpThreshold })
    .from(tierPlacements)
    .where(eq(tierPlacements.tenantId, tenantId))
    .orderBy(asc(tierPlacements.minXpThreshold));
}

export type TierLadder = Awaited<ReturnType<typeof tierLadderQuery>>;

/** A customer's tier on the ladder, or undefined below the lowest threshold. */
export function tierOnLadder(ladder: TierLadder, customer: Pick<Customer, 'lifetimeXp'>): TierLadder[number] | undefined {
  return tierForLifetimeXp(customer.lifetimeXp, ladder);
}
