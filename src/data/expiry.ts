import { inArray, lte, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';

/**
 * Deletes up to `limit` rows of `table` whose `expiresAt` is at or before `now` and returns how many
 * went. Bounded so one run never holds the D1 write lock for long; callers loop.
 */
export async function deleteExpiredRows(db: Database, table: SQLiteTable, expiresAt: SQLiteColumn, now: string, limit: number): Promise<number> {
  const expired = db
    .select({ rowid: sql<number>`rowid` })
    .from(table)
    .where(lte(expiresAt, now))
    .limit(limit);
  const result = await db.delete(table).where(inArray(sql`rowid`, expired));
  return result.meta.changes;
}
