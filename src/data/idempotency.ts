import { and, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { gatewaySignatureUses, idempotencyRecords, type IdempotencyRecord } from '../db/schema';
import { violatesUnique } from './db-errors';
import { selectedRow } from './insert-select';
import { namedBatch } from './named-batch';
import { reusableList, type Bound, type Slots } from './reusable-statements';
import { claimSignatureUse, recordSignatureUse, signatureUseKey, usedWithKey, type SignatureUse } from './signature-uses';

export type Fingerprint = { method: string; path: string; requestHash: string };

/** A request's claim of its key; `createdAt` (its clock, to the millisecond) tells it from a later claim of the same key. */
export type Claim = { tenantId: string; key: string; createdAt: string };

/** A finished request's status and body, replayed until `expiresAt`. */
export type Outcome = { status: number; body: string; expiresAt: string };

/** What holds a key for a request without a claim of its own (see settleWithoutClaim). */
export type KeyState =
  | { kind: 'stored' }
  | { kind: 'free' }
  | { kind: 'held'; record: IdempotencyRecord }
  | { kind: 'signature-used-elsewhere' };

/** How long a finished request is replayed. */
const RETENTION_MS = 24 * 60 * 60 * 1000;

/** A response to keep as the outcome of `claim`: replayed for a day from the claim. */
export function keptOutcome(claim: Claim, response: { status: number; body: string }): Outcome {
  return { ...response, expiresAt: new Date(Date.parse(claim.createdAt) + RETENTION_MS).toISOString() };
}

const recordOf = (tenantId: Bound<string>, key: Bound<string>) => and(eq(idempotencyRecords.tenantId, tenantId), eq(idempotencyRecords.key, key));
/** The key's record as `claim` made it (a later claim of the same key has another `createdAt`). */
export const claimRecord = (claim: Claim) => and(recordOf(claim.tenantId, claim.key), eq(idempotencyRecords.createdAt, claim.createdAt));

/**
 * The statements that record the signature's use and claim the key, to lead the request's first
 * D1 batch (data/leading-d1.ts). They never settle a conflict: a signature used with another key,
 * or a key held by a live record, fails its statement and D1 rolls the whole batch back, the write
 * it carries included (`isClaimConflict`). An expired record counts as absent and goes first.
 */
export function claimStatements(db: Database, claim: Claim, use: SignatureUse, fingerprint: Fingerprint, leaseUntil: string) {
  return claimRiders(db, {
    ...claim,
    ...fingerprint,
    signature: use.signature,
    idempotencyKey: use.idempotencyKey,
    signatureExpiresAt: use.expiresAt,
    leaseUntil,
  });
}

type ClaimValues = Claim & Fingerprint & { signature: string; idempotencyKey: string; signatureExpiresAt: string; leaseUntil: string };

const claimRiders = reusableList((db, $: Slots<ClaimValues>) => {
  const use = { signature: $.signature, idempotencyKey: $.idempotencyKey, expiresAt: $.signatureExpiresAt };
  return [
    claimSignatureUse(db, $.tenantId, use, $.createdAt),
    db.delete(idempotencyRecords).where(and(recordOf($.tenantId, $.key), lte(idempotencyRecords.expiresAt, $.createdAt))),
    db.insert(idempotencyRecords).values({
      tenantId: $.tenantId,
      key: $.key,
      createdAt: $.createdAt,
      method: $.method,
      path: $.path,
      requestHash: $.requestHash,
      responseStatus: null,
      responseBody: null,
      expiresAt: $.leaseUntil,
    }),
  ] as const;
});

/** True when a batch led by claimStatements was rolled back because the key or the signature is taken. */
export function isClaimConflict(error: unknown): boolean {
  return violatesUnique(error, 'idempotency_records.') || violatesUnique(error, 'gateway_signature_uses.');
}

/** Stores `outcome` as the key's record if the key is free (an expired record counts as free) and the signature's use is with this key. */
function storeOutcomeStatement(db: Database, claim: Claim, use: SignatureUse, fingerprint: Fingerprint, outcome: Outcome) {
  const record = { ...fingerprint, responseStatus: outcome.status, responseBody: outcome.body, createdAt: claim.createdAt, expiresAt: outcome.expiresAt };
  // INSERT ... SELECT: a row only when the signature's use is with this key.
  const ifOurs = db
    .select(selectedRow(idempotencyRecords, { tenantId: gatewaySignatureUses.tenantId, key: gatewaySignatureUses.idempotencyKey, ...record }))
    .from(gatewaySignatureUses)
    .where(usedWithKey(claim.tenantId, use));
  return db
    .insert(idempotencyRecords)
    .select(ifOurs)
    .onConflictDoUpdate({ target: [idempotencyRecords.tenantId, idempotencyRecords.key], set: record, setWhere: lte(idempotencyRecords.expiresAt, claim.createdAt) })
    .returning({ key: idempotencyRecords.key });
}

/**
 * One round trip for a request that holds no claim (its claim conflicted, or none of its round
 * trips succeeded, so nothing it wrote was kept): records the signature's first use, as a claim
 * would, reads the live record of the key and, given an `outcome`, stores it (storeOutcomeStatement).
 */
export async function settleWithoutClaim(db: Database, claim: Claim, use: SignatureUse, fingerprint: Fingerprint, outcome?: Outcome): Promise<KeyState> {
  const { live, signatureUse, stored } = await namedBatch(db, {
    use: recordSignatureUse(db, claim.tenantId, use),
    // Read before the store, in the same transaction: the record that holds the key, if any.
    live: db.select().from(idempotencyRecords).where(and(recordOf(claim.tenantId, claim.key), gt(idempotencyRecords.expiresAt, claim.createdAt))).limit(1),
    signatureUse: signatureUseKey(db, claim.tenantId, use.signature),
    stored: outcome && storeOutcomeStatement(db, claim, use, fingerprint, outcome),
  });
  if (signatureUse[0]?.idempotencyKey !== claim.key) return { kind: 'signature-used-elsewhere' };
  if (stored && stored.length > 0) return { kind: 'stored' };
  return live[0] ? { kind: 'held', record: live[0] } : { kind: 'free' };
}

/** Drops `claim`, so the key can be used again at once. */
export async function releaseKey(db: Database, claim: Claim): Promise<void> {
  await db.delete(idempotencyRecords).where(claimRecord(claim));
}
