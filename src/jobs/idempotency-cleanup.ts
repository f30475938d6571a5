import type { Database } from '../db/client';
import { gatewaySignatureUses, idempotencyRecords } from '../db/schema';
import { deleteExpiredRows, purgeInBatches } from '../data/expiry';
import { isoNow } from '../lib/time';

/** How far the clocks of the cron and of a gateway location may disagree. */
const CLOCK_SKEW_MARGIN_MS = 60_000;

/**
 * Deletes the gateway's expired replay state: idempotency records past `expires_at` (replays end
 * after 24 h; abandoned in-flight claims after their lease) and signature uses whose timestamp the
 * gateway refuses by now. Both are ignored once expired, so this only reclaims space. Returns how
 * many rows went.
 */
export async function purgeExpiredIdempotencyRecords(db: Database, now: string = isoNow()): Promise<number> {
  const records = await purgeInBatches((limit) => deleteExpiredRows(db, idempotencyRecords, idempotencyRecords.expiresAt, now, limit));
  return records + (await purgeExpiredSignatureUses(db, now));
}

/**
 * The signature-use half of the hourly purge. A use is kept a minute past its expiry, so a location
 * whose clock runs behind the cron's still finds it while it accepts the timestamp.
 */
export function purgeExpiredSignatureUses(db: Database, now: string = isoNow()): Promise<number> {
  const expiredBefore = new Date(Date.parse(now) - CLOCK_SKEW_MARGIN_MS).toISOString();
  return purgeInBatches((limit) => deleteExpiredRows(db, gatewaySignatureUses, gatewaySignatureUses.expiresAt, expiredBefore, limit));
}
