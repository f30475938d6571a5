import { and, count, desc, eq, gt, lte, max, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { tenantCounts, type CountSubject } from '../db/schema';
import { countBucket, type BucketFilters } from '../domain/tenant-counts';
import { offsetOf, type PageParams } from '../lib/paging';

/** A maintained count (src/db/sql/list-positions-and-counts.sql), for one batch: no row means zero. One index seek. */
function maintainedCountQuery(db: Database, tenantId: string, subject: CountSubject, filters: BucketFilters = {}) {
  return db
    .select({ value: tenantCounts.value })
    .from(tenantCounts)
    .where(and(eq(tenantCounts.tenantId, tenantId), eq(tenantCounts.subject, subject), eq(tenantCounts.bucket, countBucket(filters))));
}

/** A count over the rows of `where`, for filters no bucket answers (they narrow to one customer, reward or email). */
function liveCountQuery(db: Database, table: SQLiteTable, where: SQL | undefined) {
  return db.select({ value: count() }).from(table).where(where);
}

type PositionedTable = { tenantId: SQLiteColumn; seq: SQLiteColumn };

/**
 * Where and how to read page `params` of a tenant's newest-first list over a table numbered by
 * `seq` (never deleted, so positions are dense). Unfiltered, the page is a range of positions below
 * the newest one: an index range of `limit` rows, however deep the page. Filtered, it walks the
 * filter's `(…, seq)` index to the offset.
 */
export function newestFirstPage(db: Database, table: SQLiteTable & PositionedTable, tenantId: string, filter: SQL | undefined, params: PageParams) {
  const ofTenant = eq(table.tenantId, tenantId);
  if (filter) return { where: and(ofTenant, filter), orderBy: desc(table.seq), offset: offsetOf(params) };
  const newest = sql`(${db.select({ value: max(table.seq) }).from(table).where(ofTenant)})`;
  const skipped = offsetOf(params);
  return {
    where: and(ofTenant, lte(table.seq, sql`${newest} - ${skipped}`), gt(table.seq, sql`${newest} - ${skipped + params.limit}`)),
    orderBy: desc(table.seq),
    offset: 0,
  };
}

/**
 * The total of a list: the maintained bucket when the filters are a bucket's (none, status, type),
 * else a live count on the filter's index.
 */
export function listTotalQuery(
  db: Database,
  table: SQLiteTable,
  subject: CountSubject,
  tenantId: string,
  counted: { bucket?: BucketFilters; live?: SQL },
) {
  return counted.live ? liveCountQuery(db, table, counted.live) : maintainedCountQuery(db, tenantId, subject, counted.bucket);
}
