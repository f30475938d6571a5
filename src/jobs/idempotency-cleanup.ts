import type { Database } from '../db/client';
import { deleteExpiredRecords } from '../data/idempotency';
import { isoNow } from '../lib/time';

/** Rows per DELETE: small enough that one statement never holds D1's write lock for long. */
const BATCH_SIZE = 500;
/** Cap per run; whatever is left is taken by the next run (the job is hourly). */
const MAX_BATCHES = 100;

/**
 * Deletes idempotency records past `expires_at` (replays end after 24 h; abandoned in-flight claims
 * after their lease). Expired rows are already ignored by the gateway, so this only reclaims space.
 * Returns how many rows went.
 */
export async function purgeExpiredIdempotencyRecords(db: Database, now: string = isoNow()): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const removed = await deleteExpiredRecords(db, now, BATCH_SIZE);
    deleted += removed;
    if (removed < BATCH_SIZE) break;
  }
  return deleted;
}
