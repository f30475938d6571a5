import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { pointLots, type PointLot, type PointLotStatus } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';
import { ownedBy } from './scoping';

/** How many expiry instants a customer's points summary shows (CONTRACT.md, Point lifecycle). */
const EXPIRING_DATES = 5;

/**
 * A customer's pending XP and the XP of their next expiry instants, query builders for one batch
 * (beside the customer's row). Active lots past their `expires_at` still count: the minute cron has
 * yet to take them, and until it does they are in `xp_balance` too. Both read the debits' index
 * (`point_lots_spend_order`): the tenant check is `ownedBy` so the planner does not walk all the
 * customer's lots by the tenant's index instead, and `(expires_at IS NULL) = 0` is the index's own
 * expression, so the expiring dates come in order and the read stops after the fifth.
 */
export function customerPointsQueries(db: Database, tenantId: string, userId: string) {
  const ofCustomer = (status: PointLotStatus) => and(ownedBy(pointLots.tenantId, tenantId), eq(pointLots.userId, userId), eq(pointLots.status, status));
  return [
    db
      .select({ value: sql<number>`coalesce(sum(${pointLots.remaining}), 0)` })
      .from(pointLots)
      .where(ofCustomer('pending')),
    db
      .select({ expiresAt: sql<string>`${pointLots.expiresAt}`, amount: sql<number>`sum(${pointLots.remaining})` })
      .from(pointLots)
      .where(and(ofCustomer('active'), sql`(${pointLots.expiresAt} is null) = 0`))
      .groupBy(pointLots.expiresAt)
      .orderBy(asc(pointLots.expiresAt))
      .limit(EXPIRING_DATES),
  ] as const;
}

type PointLotFilter = PageParams & { status?: PointLotStatus };

/** A page of a customer's lots, newest first, and their total, for one batch. */
export function pointLotPageQueries(db: Database, tenantId: string, userId: string, filter: PointLotFilter) {
  const where = and(eq(pointLots.tenantId, tenantId), eq(pointLots.userId, userId), filter.status && eq(pointLots.status, filter.status));
  return [
    db.select().from(pointLots).where(where).orderBy(desc(pointLots.createdAt), desc(pointLots.id)).limit(filter.limit).offset(offsetOf(filter)),
    db.select({ value: count() }).from(pointLots).where(where),
  ] as const;
}

/** One lot of the tenant, with its customer (the `xp.expiring` webhook's resource). */
export async function findPointLot(db: Database, tenantId: string, lotId: string): Promise<PointLot | undefined> {
  const [lot] = await db.select().from(pointLots).where(and(eq(pointLots.id, lotId), eq(pointLots.tenantId, tenantId))).limit(1);
  return lot;
}
