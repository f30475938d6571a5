import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { gatewaySignatureUses } from '../db/schema';
import { ONE_ROW, selectedRow } from './insert-select';
import type { Bound } from './reusable-statements';

/** A write's verified signature, recorded with the idempotency key it was first accepted with. */
export type SignatureUse = { signature: string; idempotencyKey: string; expiresAt: string };

/** A use's values, or their placeholders in a reusable statement. */
type BoundUse = { [K in keyof SignatureUse]: Bound<SignatureUse[K]> };

const useOf = (tenantId: Bound<string>, signature: Bound<string>) => and(eq(gatewaySignatureUses.tenantId, tenantId), eq(gatewaySignatureUses.signature, signature));

/**
 * Records the first use of a signature; a later use keeps the first row (the primary key makes it
 * atomic, whatever location the requests come from). Meant for a batch: see settleWithoutClaim.
 */
export function recordSignatureUse(db: Database, tenantId: string, use: SignatureUse) {
  return db
    .insert(gatewaySignatureUses)
    .values({ tenantId, ...use })
    .onConflictDoNothing({ target: [gatewaySignatureUses.tenantId, gatewaySignatureUses.signature] });
}

/**
 * Records the first use of a signature with `use.idempotencyKey`, and fails the batch it is in (the
 * primary key) when the signature was first used with another key; a use with this key passes
 * unchanged. Meant to lead a write's batch: see data/idempotency.ts claimStatements.
 */
export function claimSignatureUse(db: Database, tenantId: Bound<string>, use: BoundUse, now: Bound<string>) {
  const usedWithThisKey = db.select({ one: sql`1` }).from(gatewaySignatureUses).where(usedWithKey(tenantId, use));
  const row = selectedRow(gatewaySignatureUses, { tenantId, ...use, createdAt: now });
  return db.insert(gatewaySignatureUses).select(db.select(row).from(ONE_ROW).where(notExists(usedWithThisKey)));
}

/** The idempotency key the signature was first used with (a select for the same batch). */
export function signatureUseKey(db: Database, tenantId: string, signature: string) {
  return db.select({ idempotencyKey: gatewaySignatureUses.idempotencyKey }).from(gatewaySignatureUses).where(useOf(tenantId, signature)).limit(1);
}

/** A condition on a select from gateway_signature_uses: the signature was first used with `idempotencyKey`. */
export function usedWithKey(tenantId: Bound<string>, use: Pick<BoundUse, 'signature' | 'idempotencyKey'>) {
  return and(useOf(tenantId, use.signature), eq(gatewaySignatureUses.idempotencyKey, use.idempotencyKey));
}
