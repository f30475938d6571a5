import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { tenantId } from './columns';

/** What a tenant count is of; the buckets of each are listed in domain/tenant-counts.ts. */
export const countSubjects = ['customers', 'internal_transactions', 'redemptions', 'active_fans', 'standing_redemptions'] as const;

/**
 * Row counts of a tenant's large tables, kept by triggers (src/db/sql/list-positions-and-counts.sql) in the same transaction
 * as every insert and status change, so list totals and analytics read a few rows instead of
 * counting the tenant: `customers` by status, `internal_transactions` by type and status,
 * `redemptions` by status, `active_fans` by country, `standing_redemptions` by reward.
 */
export const tenantCounts = sqliteTable(
  'tenant_counts',
  {
    tenantId: tenantId(),
    subject: text('subject', { enum: countSubjects }).notNull(),
    bucket: text('bucket').notNull(),
    value: integer('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.subject, t.bucket] })],
);

export type CountSubject = (typeof countSubjects)[number];
