import { env } from 'cloudflare:test';
import { measuredCron, type D1Trip } from './counting-d1';
import { everyShard, shardD1 } from '../support/world';

/** The cron that applies what requests left of cohort re-evaluations (src/jobs). */
export const MINUTE_CRON = '* * * * *';

/** Re-evaluations still pending, of one tenant (on its shard) or of all (on every shard). */
export async function pendingRecomputes(tenantId?: string): Promise<number> {
  if (tenantId !== undefined) {
    const row = await shardD1(tenantId).prepare('select count(*) as n from cohort_recomputes where tenant_id = ?').bind(tenantId).first<{ n: number }>();
    return row?.n ?? 0;
  }
  const counts = await Promise.all(everyShard().map(async ({ d1 }) => (await d1.prepare('select count(*) as n from cohort_recomputes').first<{ n: number }>())?.n ?? 0));
  return counts.reduce((total, n) => total + n, 0);
}

/** Runs the minute cron until no re-evaluation is pending: how many runs it took and every D1 round trip they made. */
export async function finishRecomputes(maxRuns = 50): Promise<{ runs: number; trips: D1Trip[] }> {
  const trips: D1Trip[] = [];
  for (let runs = 1; runs <= maxRuns; runs += 1) {
    trips.push(...(await measuredCron(MINUTE_CRON)).trips);
    if ((await pendingRecomputes()) === 0) return { runs, trips };
  }
  throw new Error(`cohort re-evaluations still pending after ${maxRuns} cron runs`);
}

/** The most rows one round trip read: what bounds the time one transaction holds the database. */
export const heaviestTrip = (trips: readonly D1Trip[]) => Math.max(0, ...trips.map((trip) => trip.rowsRead));
