import { listAuditEntries, purgeAuditEntries } from '../data/audit-log';
import type { AuditLogRow } from '../db/schema';
import { AUDIT_RETENTION_DAYS } from '../domain/audit';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import type { AuditEntryView, AuditLogQuery } from '../schemas/audit-log';
import type { ShardContext, ServiceContext } from './context';

/**
 * The audit log's reads and retention (docs/OPERATIONS.md, "Audit log"). Entries are written by
 * triggers in the batch of the change (data/audited-d1.ts): nothing here writes one.
 */

const DAY_MS = 86_400_000;

export function toAuditEntryView(row: AuditLogRow): AuditEntryView {
  return {
    id: row.id,
    at: row.at,
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    changes: JSON.parse(row.changes) as AuditEntryView['changes'],
    request_id: row.requestId,
  };
}

/** An instant as the entries store it (UTC, milliseconds), so a filter with an offset compares right. */
const stored = (instant: string | undefined) => (instant === undefined ? undefined : new Date(instant).toISOString());

/** Newest first; each filter narrows (actor, action, target, [from, to)). */
export async function listAuditLog({ db, tenantId }: ServiceContext, query: AuditLogQuery): Promise<Page<AuditEntryView>> {
  const params: PageParams = { page: query.page, limit: query.limit };
  const filters = { actorId: query.actor_id, action: query.action, targetId: query.target_id, from: stored(query.from), to: stored(query.to) };
  const { items, total } = await listAuditEntries(db, tenantId, filters, params);
  return pageOf(items.map(toAuditEntryView), total, params);
}

/** The hourly retention: entries older than AUDIT_RETENTION_DAYS go, in bounded batches. */
export function purgeExpiredAuditEntries(ctx: ShardContext): Promise<number> {
  return purgeAuditEntries(ctx.db, new Date(ctx.now().getTime() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString());
}
