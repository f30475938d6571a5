import { and, eq, inArray, isNotNull, isNull, like, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { eraseFromAuditLog } from './audit-log';
import { customerAttributeValues, customers, idempotencyRecords, redemptions, webhookEvents } from '../db/schema';

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
 * The webhook bodies that show the person: those of the customer's own events and of its
 * redemptions' (a redemption carries its customer's username and email); other bodies carry only
 * the customer id. Found by resource (an index), never by reading every body of the tenant.
 */
function personsWebhookEvents(db: Database, tenantId: string, customerId: string) {
  const redemptionsOfCustomer = db.select({ id: redemptions.id }).from(redemptions).where(and(eq(redemptions.tenantId, tenantId), eq(redemptions.userId, customerId)));
  return and(
    eq(webhookEvents.tenantId, tenantId),
    isNotNull(webhookEvents.payload),
    or(and(eq(webhookEvents.resourceId, customerId), like(webhookEvents.type, 'customer.%')), and(inArray(webhookEvents.resourceId, redemptionsOfCustomer), like(webhookEvents.type, 'redemption.%'))),
  );
}

/**
 * Everything else that held the person's data: attribute values (their cohorts are re-evaluated by
 * the triggers), webhook bodies already rendered with the customer (rendered again, erased, by the
 * next attempt or replay), and stored idempotent responses that show it (the key is forgotten; at
 * most a day of the tenant's gateway writes is read: records live 24 hours). Last, the audit log's
 * entries about the customer lose the person's values, those the erasure's own entry recorded
 * before it included (the triggers wrote it by then).
 */
export function erasureStatements(db: Database, tenantId: string, customerId: string, now: string) {
  return [
    eraseProfile(db, tenantId, customerId, now),
    db.delete(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenantId), eq(customerAttributeValues.userId, customerId))),
    db.update(webhookEvents).set({ payload: null }).where(personsWebhookEvents(db, tenantId, customerId)),
    db.delete(idempotencyRecords).where(and(eq(idempotencyRecords.tenantId, tenantId), sql`instr(${idempotencyRecords.responseBody}, ${customerId}) > 0`)),
    eraseFromAuditLog(db, tenantId, customerId),
  ] as const;
}
