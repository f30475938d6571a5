import { activationBatch, expiryBatch, noticeStatement } from '../data/lot-jobs';
import { isoNow } from '../lib/time';
import type { ShardContext } from './context';
import { enqueueOperations } from './settlement';
import { reviewTiers, topUpReviewCalendars } from './tier-retention';

/**
 * The point lifecycle's minute jobs (docs/POINTS.md): pending lots become spendable, expiry
 * notices go out, expired lots are taken and held tiers are reviewed, each in chunks of LOT_CHUNK
 * lots (or customers), at most
 * CHUNKS_PER_RUN chunks per run whatever the backlog (the next minute takes the rest), so a run's
 * statements are bounded and requests run between its transactions.
 */
export const LOT_CHUNK = 500;
export const CHUNKS_PER_RUN = 20;

export type LotJobSummary = { activated: number; noticed: number; expired: number; reviewed: number; more: boolean };

/** Runs `chunk` until it handles fewer than LOT_CHUNK lots or the run's chunks are spent. */
async function inChunks(chunk: () => Promise<number>): Promise<{ handled: number; more: boolean }> {
  let handled = 0;
  for (let run = 0; run < CHUNKS_PER_RUN; run++) {
    const count = await chunk();
    handled += count;
    if (count < LOT_CHUNK) return { handled, more: false };
  }
  return { handled, more: true };
}

/** One batch of `statements` whose last result lists the chunk's lots and the operations to enqueue. */
async function chunkOf(ctx: ShardContext, statements: ReturnType<typeof activationBatch> | ReturnType<typeof expiryBatch>): Promise<number> {
  const results = await ctx.db.batch(statements);
  const rows = results[results.length - 1] as { lotId: string; operationId: string | null }[];
  const operations = [...new Set(rows.flatMap((row) => row.operationId ?? []))];
  if (operations.length > 0) await enqueueOperations(ctx, operations);
  return rows.length;
}

/** The minute cron's lot jobs, in the order a lot lives them. */
export async function runLotJobs(ctx: ShardContext): Promise<LotJobSummary> {
  const activation = await inChunks(() => chunkOf(ctx, activationBatch(ctx.db, isoNow(ctx.now()), LOT_CHUNK)));
  const notices = await inChunks(async () => (await noticeStatement(ctx.db, { now: isoNow(ctx.now()), size: LOT_CHUNK })).length);
  const expiry = await inChunks(() => chunkOf(ctx, expiryBatch(ctx.db, isoNow(ctx.now()), LOT_CHUNK)));
  await topUpReviewCalendars(ctx);
  const reviews = await inChunks(() => reviewTiers(ctx, LOT_CHUNK));
  return {
    activated: activation.handled,
    noticed: notices.handled,
    expired: expiry.handled,
    reviewed: reviews.handled,
    more: activation.more || notices.more || expiry.more || reviews.more,
  };
}
