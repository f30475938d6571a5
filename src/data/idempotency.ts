import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyRecords, type IdempotencyRecord } from '../db/schema';

export type Fingerprint = { method: string; path: string; requestHash: string };

/** What the reservation found: ours to run, or someone else's record (in flight or finished). */
export type Reservation = { owned: true; createdAt: string } | { owned: false; record: IdempotencyRecord };

const recordOf = (tenantId: string, key: string) => and(eq(idempotencyRecords.tenantId, tenantId), eq(idempotencyRecords.key, key));

/**
 * Claims `key` for this request in one round trip: inserts an in-flight record, or takes over an
 * expired one (expired records count as absent); otherwise returns the record that holds the key.
 * `created_at` (this request's clock, to the millisecond) identifies the claim when it is settled.
 */
export async function reserveKey(
  db: Database,
  tenantId: string,
  key: string,
  fingerprint: Fingerprint,
  times: { now: string; leaseUntil: string },
): Promise<Reservation> {
  const claim = { ...fingerprint, responseStatus: null, responseBody: null, createdAt: times.now, expiresAt: times.leaseUntil };
  const [claimed, existing] = await db.batch([
    db
      .insert(idempotencyRecords)
      .values({ tenantId, key, ...claim })
      .onConflictDoUpdate({
        target: [idempotencyRecords.tenantId, idempotencyRecords.key],
        set: claim,
        setWhere: lte(idempotencyRecords.expiresAt, times.now),
      })
      .returning({ createdAt: idempotencyRecords.createdAt }),
    db.select().from(idempotencyRecords).where(recordOf(tenantId, key)).limit(1),
  ]);
  if (claimed[0]) return { owned: true, createdAt: claimed[0].createdAt };
  const record = existing[0];
  if (!record) throw new Error('idempotency record vanished during reservation');
  return { owned: false, record };
}

/** Stores the outcome of the claim made at `createdAt`, to be replayed until `expiresAt`. */
export async function completeKey(
  db: Database,
  tenantId: string,
  key: string,
  createdAt: string,
  outcome: { status: number; body: string; expiresAt: string },
): Promise<void> {
  await db
    .update(idempotencyRecords)
    .set({ responseStatus: outcome.status, responseBody: outcome.body, expiresAt: outcome.expiresAt })
    .where(and(recordOf(tenantId, key), eq(idempotencyRecords.createdAt, createdAt)));
}

/** Drops the claim made at `createdAt`, so the key can be used again at once. */
export async function releaseKey(db: Database, tenantId: string, key: string, createdAt: string): Promise<void> {
  await db.delete(idempotencyRecords).where(and(recordOf(tenantId, key), eq(idempotencyRecords.createdAt, createdAt)));
}

/**
 * Deletes up to `limit` records expired at `now` and returns how many went. Bounded so one run
 * never holds the D1 write lock for long; callers loop.
 */
export async function deleteExpiredRecords(db: Database, now: string, limit: number): Promise<number> {
  const expired = db
    .select({ rowid: sql<number>`rowid` })
    .from(idempotencyRecords)
    .where(lte(idempotencyRecords.expiresAt, now))
    .limit(limit);
  const result = await db.delete(idempotencyRecords).where(inArray(sql`rowid`, expired));
  return result.meta.changes;
}
