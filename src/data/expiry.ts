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

/** Rows per DELETE: small enough that one statement never holds D1's write lock for long. */
const BATCH_SIZE = 500;
/** Cap per run and table; whatever is left is taken by the next run (the purges are hourly). */
const MAX_BATCHES = 100;

/** Runs `deleteBatch` until it removes less than a full batch, or the cap; returns how many rows went. */
export async function purgeInBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const removed = await deleteBatch(BATCH_SIZE);
    deleted += removed;
    if (removed < BATCH_SIZE) break;
  }
  return deleted;
}
