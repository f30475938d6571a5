import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { gatewaySignatureUses } from '../db/schema';

/** A write's verified signature, recorded with the idempotency key it was first accepted with. */
export type SignatureUse = { signature: string; idempotencyKey: string; expiresAt: string };

const useOf = (tenantId: string, signature: string) => and(eq(gatewaySignatureUses.tenantId, tenantId), eq(gatewaySignatureUses.signature, signature));

/**
 * Records the first use of a signature; a later use keeps the first row (the primary key makes it
 * atomic, whatever location the requests come from). Meant for a batch: see reserveKey.
 */
export function recordSignatureUse(db: Database, tenantId: string, use: SignatureUse) {
  return db
    .insert(gatewaySignatureUses)
    .values({ tenantId, ...use })
    .onConflictDoNothing({ target: [gatewaySignatureUses.tenantId, gatewaySignatureUses.signature] });
}

/** The idempotency key the signature was first used with (a select for the same batch). */
export function signatureUseKey(db: Database, tenantId: string, signature: string) {
  return db.select({ idempotencyKey: gatewaySignatureUses.idempotencyKey }).from(gatewaySignatureUses).where(useOf(tenantId, signature)).limit(1);
}

/** A condition on a select from gateway_signature_uses: the signature was first used with `idempotencyKey`. */
export function usedWithKey(tenantId: string, use: SignatureUse) {
  return and(useOf(tenantId, use.signature), eq(gatewaySignatureUses.idempotencyKey, use.idempotencyKey));
}
