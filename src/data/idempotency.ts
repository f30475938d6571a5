import { and, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { gatewaySignatureUses, idempotencyRecords, type IdempotencyRecord } from '../db/schema';
import { recordSignatureUse, signatureUseKey, usedWithKey, type SignatureUse } from './signature-uses';

export type Fingerprint = { method: string; path: string; requestHash: string };

/**
 * What the reservation found: the key claimed for this request, someone else's record holding the
 * key (in flight or finished), or the request's signature already used with another key.
 */
export type Reservation = { kind: 'claimed'; createdAt: string } | { kind: 'held'; record: IdempotencyRecord } | { kind: 'signature-used-elsewhere' };

const recordOf = (tenantId: string, key: string) => and(eq(idempotencyRecords.tenantId, tenantId), eq(idempotencyRecords.key, key));

/**
 * One round trip (one D1 transaction), after the API key guard when it rides along: records the
 * signature's first use, then claims `key` only if that use is with `key`: inserts an in-flight
 * record, or takes over an expired one (expired records count as absent). A signature first used
 * with another key claims nothing. `created_at` (this request's clock, to the millisecond)
 * identifies the claim when it is settled.
 */
export async function reserveKey(
  db: Database,
  tenantId: string,
  use: SignatureUse,
  fingerprint: Fingerprint,
  times: { now: string; leaseUntil: string },
): Promise<Reservation> {
  const key = use.idempotencyKey;
  const claim = { ...fingerprint, responseStatus: null, responseBody: null, createdAt: times.now, expiresAt: times.leaseUntil };
  // INSERT ... SELECT: the row exists only when the signature's use is with this key.
  const claimIfOurs = db
    .select({
      tenantId: gatewaySignatureUses.tenantId,
      key: gatewaySignatureUses.idempotencyKey,
      method: sql`${claim.method}`.as('method'),
      path: sql`${claim.path}`.as('path'),
      requestHash: sql`${claim.requestHash}`.as('request_hash'),
      responseStatus: sql`null`.as('response_status'),
      responseBody: sql`null`.as('response_body'),
      createdAt: sql`${claim.createdAt}`.as('created_at'),
      expiresAt: sql`${claim.expiresAt}`.as('expires_at'),
    })
    .from(gatewaySignatureUses)
    .where(usedWithKey(tenantId, use));
  const [, claimed, existing, signatureUse] = await db.batch([
    recordSignatureUse(db, tenantId, use),
    db
      .insert(idempotencyRecords)
      .select(claimIfOurs)
      .onConflictDoUpdate({
        target: [idempotencyRecords.tenantId, idempotencyRecords.key],
        set: claim,
        setWhere: lte(idempotencyRecords.expiresAt, times.now),
      })
      .returning({ createdAt: idempotencyRecords.createdAt }),
    db.select().from(idempotencyRecords).where(recordOf(tenantId, key)).limit(1),
    signatureUseKey(db, tenantId, use.signature),
  ]);
  if (signatureUse[0]?.idempotencyKey !== key) return { kind: 'signature-used-elsewhere' };
  if (claimed[0]) return { kind: 'claimed', createdAt: claimed[0].createdAt };
  const record = existing[0];
  if (!record) throw new Error('idempotency record vanished during reservation');
  return { kind: 'held', record };
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
