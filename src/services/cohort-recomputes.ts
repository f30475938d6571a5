import type { Database } from '../db/client';
import { pendingRecomputesQuery, recomputeChunkQuery } from '../data/cohort-recomputes';
import { CRON_RECOMPUTE_CHUNKS, REQUEST_RECOMPUTE_CHUNKS } from '../domain/cohort-recompute';

/**
 * Applies pending cohort re-evaluations (of `tenantId`, or of every tenant, oldest first), one
 * bounded chunk per transaction so other requests run in between (migrations/0008), until none is
 * left or `chunks` were applied. True when some are still pending.
 */
async function applyRecomputes(db: Database, chunks: number, tenantId?: string): Promise<boolean> {
  for (let applied = 0; applied < chunks; applied += 1) {
    const [, [pending]] = await db.batch([recomputeChunkQuery(db, tenantId), pendingRecomputesQuery(db, tenantId)]);
    if ((pending?.value ?? 0) === 0) return false;
  }
  return true;
}

/**
 * After a write that can re-evaluate cohorts over many customers (rules saved, a definition or tier
 * changed, a cohort deleted): applied before the write answers, so its counts are exact then, up
 * to a budget; a larger tenant's remainder is applied by the minute cron.
 */
export async function applyTenantRecomputes(db: Database, tenantId: string): Promise<void> {
  await applyRecomputes(db, REQUEST_RECOMPUTE_CHUNKS, tenantId);
}

/** The minute cron's share: what requests left over, every tenant, oldest first. */
export async function applyPendingRecomputes(db: Database): Promise<{ pending: boolean }> {
  return { pending: await applyRecomputes(db, CRON_RECOMPUTE_CHUNKS) };
}
