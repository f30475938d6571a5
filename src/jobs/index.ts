import type { Bindings } from '../env';
import { eachShard, runContext, type ShardContext } from '../services/context';
import { followSettlements } from '../services/settlement-receipts';
import { watchRelayer } from '../services/relayer-watch';
import { openXpTokens } from '../services/xp-openings';
import { indexOnchainAssets } from './asset-indexer';
import { refreshQueryStatistics } from '../data/query-statistics';
import { purgeExpiredIdempotencyRecords } from './idempotency-cleanup';
import { applyPendingRecomputes } from '../services/cohort-recomputes';
import { enqueueDueDeliveries } from '../services/webhook-deliveries';
import { runLotJobs } from '../services/point-jobs';
import { purgeExpiredAuditEntries } from '../services/audit-log';
import { purgeImportFiles, resumeStalledImports } from '../services/import-retention';
import { expireExportFiles, failAbandonedExportJobs } from '../services/exports';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

type Job = (env: Bindings) => Promise<unknown>;

/** A job over tenants' data: run on every shard (services/context.ts, `eachShard`). */
const onEachShard = (job: (ctx: ShardContext, env: Bindings) => Promise<unknown>): Job => (env) => eachShard(runContext(env), (ctx) => job(ctx, env));

/** Cron expression (exactly as in wrangler.toml `[triggers] crons`) -> the jobs it runs. */
export const cronJobs: Record<string, Job[]> = {
  '* * * * *': [
    onEachShard(followSettlements),
    indexOnchainAssets,
    (env) => watchRelayer(runContext(env)),
    onEachShard(openXpTokens),
    onEachShard(applyPendingRecomputes),
    onEachShard(runLotJobs),
    onEachShard((ctx, env) => enqueueDueDeliveries(ctx, env.WEBHOOK_QUEUE)),
  ],
  '0 * * * *': [
    onEachShard((ctx) => purgeExpiredIdempotencyRecords(ctx.db)),
    (env) => Promise.all([env.DB, ...runContext(env).shards.map((shard) => shard.d1)].map(refreshQueryStatistics)),
    onEachShard(purgeExpiredAuditEntries),
    onEachShard((ctx, env) => purgeImportFiles(ctx, env.FILES)),
    onEachShard((ctx, env) => resumeStalledImports(ctx, env.OPERATIONS_QUEUE)),
    onEachShard((ctx, env) => expireExportFiles(ctx, env.FILES)),
    onEachShard(failAbandonedExportJobs),
  ],
};

/** The Worker's `scheduled` handler: runs the jobs of the cron that fired; one failing job does not stop the others. */
export async function runScheduled(controller: ScheduledController, env: Bindings): Promise<void> {
  const jobs = cronJobs[controller.cron] ?? [];
  if (jobs.length === 0) log('warn', 'no job for this cron', { cron: controller.cron });
  const results = await Promise.allSettled(jobs.map((job) => job(env)));
  const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  for (const failure of failures) log('error', 'scheduled job failed', { cron: controller.cron, reason: reasonOf(failure.reason) });
  if (failures.length > 0) throw new Error(`${failures.length} scheduled job(s) failed for cron ${controller.cron}`);
}
