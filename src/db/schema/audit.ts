import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId } from './columns';

export const auditActorTypes = ['account', 'api_key'] as const;
export type AuditActorType = (typeof auditActorTypes)[number];

/** Who made a change and in which operation: the context carries them, each entry copies them. */
const writer = () => ({
  tenantId: tenantId(),
  at: text('at').notNull(),
  actorType: text('actor_type', { enum: auditActorTypes }).notNull(),
  actorId: text('actor_id').notNull(),
  actorLabel: text('actor_label').notNull(),
  /** The operationId of the route that made the change. */
  action: text('action').notNull(),
});

/**
 * One change a portal write or a gateway customer write made, written by the triggers of
 * src/db/sql/audit-log.sql in the same transaction as the change (docs/OPERATIONS.md, "Audit
 * log"). `changes` is JSON `{field: [before, after]}`. No route writes or deletes a row: the hourly
 * cron deletes rows past their retention, and erasure blanks a person's values in them.
 * One row per request and target: a request that writes its target twice merges the changes.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: id(),
    ...writer(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    changes: text('changes').notNull(),
    /** The request's `X-Request-Id` (a caller may choose it: shown, never a key). */
    requestId: text('request_id').notNull(),
    /** Unique per audited request, made by the server: what a second change of the same target merges by. */
    writeId: text('write_id').notNull(),
  },
  (t) => [
    uniqueIndex('audit_log_write_target').on(t.writeId, t.targetType, t.targetId),
    index('audit_log_tenant_at').on(t.tenantId, t.at, t.id),
    index('audit_log_tenant_actor_at').on(t.tenantId, t.actorId, t.at, t.id),
    index('audit_log_tenant_action_at').on(t.tenantId, t.action, t.at, t.id),
    index('audit_log_tenant_target_at').on(t.tenantId, t.targetId, t.at, t.id),
    index('audit_log_at').on(t.at),
  ],
);

/**
 * Who is writing, for the triggers: a row exists only inside the D1 batch of an audited request's
 * write (data/audited-d1.ts inserts it first and deletes it last, in the same transaction), so it
 * is empty between batches. `tables`: the tables the operation's changes are recorded from, as
 * `,name,name,` (the triggers test membership with instr).
 */
export const auditContext = sqliteTable('audit_context', {
  writeId: text('write_id').primaryKey(),
  requestId: text('request_id').notNull(),
  ...writer(),
  tables: text('tables').notNull(),
});

export type AuditLogRow = typeof auditLog.$inferSelect;
export type AuditContextRow = typeof auditContext.$inferInsert;
