import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tierRules, type Customer } from '../db/schema';
import { tierForLifetimeXp } from '../domain/tiers';

/**
 * The tenant's tier ladder, lowest threshold first; among equal thresholds the oldest rule comes
 * first and so wins (tierForLifetimeXp keeps the first of equals), which keeps placement stable.
 * A query builder: put it in the batch that reads the customers (one query for any set of them).
 *
 * @example
 * const [rows, ladder] = await db.batch([customersQuery, tierLadderQuery(db, tenantId)]);
 * rows.map((customer) => toCustomerView(customer, tierOnLadder(ladder, customer)));
 */
export function tierLadderQuery(db: Database, tenantId: string) {
  return db
    .select({ id: tierRules.id, tierName: tierRules.tierName, minXpThreshold: tierRules.minXpThreshold })
    .from(tierRules)
    .where(eq(tierRules.tenantId, tenantId))
    .orderBy(asc(tierRules.minXpThreshold), asc(tierRules.createdAt), asc(tierRules.id));
}

export type TierLadder = Awaited<ReturnType<typeof tierLadderQuery>>;

/** A customer's tier on the ladder, or undefined below the lowest threshold. */
export function tierOnLadder(ladder: TierLadder, customer: Pick<Customer, 'lifetimeXp'>): TierLadder[number] | undefined {
  return tierForLifetimeXp(customer.lifetimeXp, ladder);
}
