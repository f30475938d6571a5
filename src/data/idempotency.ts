import { and, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { gatewaySignatureUses, idempotencyRecords, type IdempotencyRecord } from '../db/schema';
import { violatesUnique } from './db-errors';
import { reusable, reusableList, type Bound, type Slots } from './reusable-statements';
import { claimSignatureUse, recordSignatureUse, signatureUseKey, usedWithKey, type SignatureUse } from './signature-uses';

export type Fingerprint = { method: string; path: string; requestHash: string };

/** A request's claim of its key; `createdAt` (its clock, to the millisecond) tells it from a later claim of the same key. */
export type Claim = { tenantId: string; key: string; createdAt: string };

/** A finished request's status and body, replayed until `expiresAt`. */
export type Outcome = { status: number; body: string; expiresAt: string };

/** A gateway write under way: its claim, and its response once the write's own batch stored it. */
export type IdempotentWrite = { claim: Claim; storedWithWrite?: Omit<Outcome, 'expiresAt'> };

/** What holds a key for a request without a claim of its own (see settleWithoutClaim). */
export type KeyState =
  | { kind: 'stored' }
  | { kind: 'free' }
  | { kind: 'held'; record: IdempotencyRecord }
  | { kind: 'signature-used-elsewhere' };

const recordOf = (tenantId: Bound<string>, key: Bound<string>) => and(eq(idempotencyRecords.tenantId, tenantId), eq(idempotencyRecords.key, key));
const claimRecord = (claim: Claim) => and(recordOf(claim.tenantId, claim.key), eq(idempotencyRecords.createdAt, claim.createdAt));

/**
 * The statements that record the signature's use and claim the key, to lead the request's first
 * D1 batch (data/claiming-d1.ts). They never settle a conflict: a signature used with another key,
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
    .select({
      tenantId: gatewaySignatureUses.tenantId,
      key: gatewaySignatureUses.idempotencyKey,
      method: sql`${record.method}`.as('method'),
      path: sql`${record.path}`.as('path'),
      requestHash: sql`${record.requestHash}`.as('request_hash'),
      responseStatus: sql`${record.responseStatus}`.as('response_status'),
      responseBody: sql`${record.responseBody}`.as('response_body'),
      createdAt: sql`${record.createdAt}`.as('created_at'),
      expiresAt: sql`${record.expiresAt}`.as('expires_at'),
    })
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
  const [, live, signatureUse, stored] = await db.batch([
    recordSignatureUse(db, claim.tenantId, use),
    // Read before the store, in the same transaction: the record that holds the key, if any.
    db.select().from(idempotencyRecords).where(and(recordOf(claim.tenantId, claim.key), gt(idempotencyRecords.expiresAt, claim.createdAt))).limit(1),
    signatureUseKey(db, claim.tenantId, use.signature),
    ...(outcome ? [storeOutcomeStatement(db, claim, use, fingerprint, outcome)] : []),
  ]);
  if (signatureUse[0]?.idempotencyKey !== claim.key) return { kind: 'signature-used-elsewhere' };
  if (stored && stored.length > 0) return { kind: 'stored' };
  return live[0] ? { kind: 'held', record: live[0] } : { kind: 'free' };
}

/** What a completion's RETURNING rows hold: one row, with the body stored, when it stored anything. */
const stored = { key: idempotencyRecords.key, body: idempotencyRecords.responseBody };
export type StoredRows = readonly { key: string; body: string | null }[];

/** Stores the outcome of `claim`; its RETURNING rows say whether it stored anything. */
export function completionStatement(db: Database, claim: Claim, outcome: Outcome) {
  return db
    .update(idempotencyRecords)
    .set({ responseStatus: outcome.status, responseBody: outcome.body, expiresAt: outcome.expiresAt })
    .where(claimRecord(claim))
    .returning(stored);
}

/** The claim's and the outcome's values in a conditional completion (names no condition uses). */
export type CompletionValues = {
  claimTenantId: string;
  claimKey: string;
  claimCreatedAt: string;
  responseStatus: number;
  responseBody: string;
  responseExpiresAt: string;
};

/** A completion stored only if its condition holds, for the values `C` of the condition. */
export type Completion<C> = (db: Database, values: CompletionValues & C) => ReturnType<typeof completionStatement>;

/** A conditional completion with its condition's values. */
export type StoredIf<C> = { completion: Completion<C>; values: C };

/**
 * A completion that stores the claim's outcome only if `onlyIf` holds: SQL placed after the write in
 * the same batch, on placeholders of its own values. `bodyOf` may finish the rendered body in SQL
 * (a value the write did not read); the stored body is what the RETURNING rows give back. Built
 * once (reusable-statements.ts): define it at module level.
 */
export function completionWhen<C extends Record<string, unknown>>(
  onlyIf: (db: Database, $: Slots<C>) => SQL,
  bodyOf: ($: Slots<CompletionValues & C>) => SQL = ($) => sql`${$.responseBody}`,
): Completion<C> {
  return reusable((db, $: Slots<CompletionValues & C>) =>
    db
      .update(idempotencyRecords)
      .set({ responseStatus: sql`${$.responseStatus}`, responseBody: bodyOf($), expiresAt: sql`${$.responseExpiresAt}` })
      .where(
        and(
          eq(idempotencyRecords.tenantId, $.claimTenantId),
          eq(idempotencyRecords.key, $.claimKey),
          eq(idempotencyRecords.createdAt, $.claimCreatedAt),
          onlyIf(db, $),
        ),
      )
      .returning(stored),
  );
}

/** Stores the outcome of `claim`, to be replayed until `outcome.expiresAt`. */
export async function completeKey(db: Database, claim: Claim, outcome: Outcome): Promise<void> {
  await completionStatement(db, claim, outcome);
}

/** Drops `claim`, so the key can be used again at once. */
export async function releaseKey(db: Database, claim: Claim): Promise<void> {
  await db.delete(idempotencyRecords).where(claimRecord(claim));
}

/**
 * Lets a write store its own response in its batch, one D1 round trip fewer. Before the batch the
 * write renders the view it will answer from the values it is about to write; `statement` stores
 * that view's response in the request's claim if the completion's condition, on `values`, confirms
 * after the write in the same batch that the rows are the ones the view was rendered from. `settle`
 * takes the statement's rows once the batch ran: the body stored is the answer. A write that cannot render its view beforehand
 * skips it and the idempotency middleware stores the response after the handler, as for any other
 * write.
 */
export type ResponseWithWrite<View> = {
  statement<C extends Record<string, unknown>>(db: Database, view: View, storedIf?: StoredIf<C>): ReturnType<typeof completionStatement>;
  settle(rows: StoredRows): void;
};
