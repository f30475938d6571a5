import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { auditLog, type AuditLogRow } from '../db/schema';
import { personalFields } from '../domain/audit';
import type { PageParams } from '../lib/paging';
import { offsetOf } from '../lib/paging';
import { deleteExpiredRows, purgeInBatches } from './expiry';
import { namedBatch } from './named-batch';

export type AuditFilters = { actorId?: string; action?: string; targetId?: string; from?: string; to?: string };

/** A page of the tenant's entries, newest first, and the total, in one round trip (each filter has its `(tenant, …, at)` index). */
export async function listAuditEntries(db: Database, tenantId: string, filters: AuditFilters, params: PageParams): Promise<{ items: AuditLogRow[]; total: number }> {
  const where = and(
    eq(auditLog.tenantId, tenantId),
    filters.actorId === undefined ? undefined : eq(auditLog.actorId, filters.actorId),
    filters.action === undefined ? undefined : eq(auditLog.action, filters.action),
    filters.targetId === undefined ? undefined : eq(auditLog.targetId, filters.targetId),
    filters.from === undefined ? undefined : gte(auditLog.at, filters.from),
    filters.to === undefined ? undefined : lt(auditLog.at, filters.to),
  );
  const { items, total } = await namedBatch(db, {
    items: db.select().from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(params.limit).offset(offsetOf(params)),
    total: db.select({ value: count() }).from(auditLog).where(where),
  });
  return { items, total: total[0]?.value ?? 0 };
}

/** Entries older than `before`, deleted in bounded batches (the hourly retention); returns how many went. */
export function purgeAuditEntries(db: Database, before: string): Promise<number> {
  return purgeInBatches((limit) => deleteExpiredRows(db, auditLog, auditLog.at, before, limit));
}

const personal = sql.raw(personalFields.map((field) => `'${field}'`).join(', '));

/**
 * For erasure's batch (data/erasure.ts): the person's values in the entries about the customer,
 * its erasure's own included, become "[erased]" (a missing value stays null), so the log keeps who
 * changed what and when, never what the person's data was.
 */
export function eraseFromAuditLog(db: Database, tenantId: string, customerId: string) {
  const blank = (index: number) => sql`iif(value ->> ${sql.raw(String(index))} IS NULL, NULL, '[erased]')`;
  return db
    .update(auditLog)
    .set({
      changes: sql`(SELECT json_group_object(key, iif(key IN (${personal}) OR key LIKE 'attr.%', json_array(${blank(0)}, ${blank(1)}), json(value))) FROM json_each(${auditLog.changes}))`,
    })
    .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.targetId, customerId), eq(auditLog.targetType, 'customer')));
}
