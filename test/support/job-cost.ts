import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { createDatabase } from '../../src/db/client';
import { runContext } from '../../src/services/context';
import { runLotJobs } from '../../src/services/point-jobs';
import { countingD1, newCost, type D1Cost } from '../cohorts/counting-d1';
import { shardD1, shardRun } from './world';

/** Counting what the minute cron's point jobs issue, for the tests that prove them bounded (test/points/*scale*). */

/** `WITH RECURSIVE n(i)` of 1..count, to write a backlog set-based. */
export const numbers = (count: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;

/** No round trip read more than `rows`: a chunk's work is its own rows', never a scan of the table. */
export function expectNoScan(cost: D1Cost, rows: number) {
  const heaviest = cost.trips.reduce((top, trip) => (trip.rowsRead > top.rowsRead ? trip : top));
  expect(heaviest.rowsRead, heaviest.sql.join('\n')).toBeLessThanOrEqual(rows);
}

/** One run of the point jobs at `at` on the tenant's shard, over a binding that counts what it issues. */
export async function measuredJobRun(tenantId: string, at: Date) {
  const cost = newCost();
  const summary = await runLotJobs(shardRun(tenantId, { db: createDatabase(countingD1(shardD1(tenantId), cost)), now: () => at }));
  return { summary, cost };
}
