import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customerAttributeValues, customers, idempotencyRecords, webhookEvents } from '../db/schema';

/**
 * Erasing a person (CONTRACT.md, Operations: erasure; docs/OPERATIONS.md): the statements of one
 * D1 batch that remove the person's data and keep everything financial under the customer id.
 */

/**
 * The customer loses email, username and external id (an unguessable tombstone takes the id's
 * place, so an upsert with the old one creates a new customer) and is stamped `erased_at`, whose
 * trigger records `customer.erased`. Only the first erasure changes anything (idempotent).
 */
function eraseProfile(db: Database, tenantId: string, customerId: string, now: string) {
  return db
    .update(customers)
    .set({ email: null, username: null, externalId: sql`'erased_' || lower(hex(randomblob(16)))`, erasedAt: now, updatedAt: now })
    .where(and(eq(customers.id, customerId), eq(customers.tenantId, tenantId), isNull(customers.erasedAt)));
}

/**
 * Everything else that held the person's data: attribute values (their cohorts are re-evaluated by
 * the triggers), webhook bodies already rendered with the customer (rendered again, erased, by the
 * next attempt or replay), and stored idempotent responses that show it (the key is forgotten).
 */
export function erasureStatements(db: Database, tenantId: string, customerId: string, now: string) {
  const mentions = (column: typeof webhookEvents.payload | typeof idempotencyRecords.responseBody) => sql`instr(${column}, ${customerId}) > 0`;
  return [
    eraseProfile(db, tenantId, customerId, now),
    db.delete(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenantId), eq(customerAttributeValues.userId, customerId))),
    db.update(webhookEvents).set({ payload: null }).where(and(eq(webhookEvents.tenantId, tenantId), mentions(webhookEvents.payload))),
    db.delete(idempotencyRecords).where(and(eq(idempotencyRecords.tenantId, tenantId), mentions(idempotencyRecords.responseBody))),
  ] as const;
}
