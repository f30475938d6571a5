import type { Database } from '../db/client';
import { pendingRecomputesQuery, recomputeChunkQuery } from '../data/cohort-recomputes';
import { namedBatch } from '../data/named-batch';
import { CRON_RECOMPUTE_CHUNKS, REQUEST_RECOMPUTE_CHUNKS } from '../domain/cohort-recompute';
import type { ShardContext, ServiceContext } from './context';

/**
 * Applies pending cohort re-evaluations (of `tenantId`, or of every tenant, oldest first), one
 * bounded chunk per transaction so other requests run in between (src/db/sql/cohort-recomputes.sql), until none is
 * left or `chunks` were applied. True when some are still pending.
 */
async function applyRecomputes(db: Database, chunks: number, tenantId?: string): Promise<boolean> {
  for (let applied = 0; applied < chunks; applied += 1) {
    const { pending } = await namedBatch(db, { chunk: recomputeChunkQuery(db, tenantId), pending: pendingRecomputesQuery(db, tenantId) });
    if ((pending[0]?.value ?? 0) === 0) return false;
  }
  return true;
}

/**
 * After a write that can re-evaluate cohorts over many customers (rules saved, a definition or tier
 * changed, a cohort deleted): applied before the write answers, so its counts are exact then, up
 * to a budget; a larger tenant's remainder is applied by the minute cron.
 */
export async function applyTenantRecomputes({ db, tenantId }: ServiceContext): Promise<void> {
  await applyRecomputes(db, REQUEST_RECOMPUTE_CHUNKS, tenantId);
}

/** The minute cron's share: what requests left over, every tenant, oldest first. */
export async function applyPendingRecomputes({ db }: ShardContext): Promise<{ pending: boolean }> {
  return { pending: await applyRecomputes(db, CRON_RECOMPUTE_CHUNKS) };
}
