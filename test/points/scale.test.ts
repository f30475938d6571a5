import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client';
import { activationBatch, expiryBatch } from '../../src/data/lot-jobs';
import { reviewBatch } from '../../src/data/tier-retention';
import { CHUNKS_PER_RUN, LOT_CHUNK } from '../../src/services/point-jobs';
import type { D1Cost } from '../cohorts/counting-d1';
import { expectNoScan, measuredJobRun, numbers } from '../support/job-cost';
import { expectLotInvariant } from '../support/lot-invariant';
import { createTenant, shardD1 } from '../support/world';

/**
 * The lot jobs are bounded per run whatever the backlog (docs/decisions/0098-lot-jobs.md): with
 * 100,000 lots due to expire (and due notices), and 15,000 pending lots due to activate, spread
 * over 2,000 customers, one run issues at most CHUNKS_PER_RUN chunks of each job, takes exactly
 * CHUNKS_PER_RUN x LOT_CHUNK lots of each, says there is `more`, and leaves the rest, untouched,
 * to the next run. The backlog is written set-based (recursive CTEs), balanced like real data:
 * each customer's balance is its active lots, its pending credits are pending transactions.
 */

const CUSTOMERS = 2_000;
const EXPIRING = 100_000;
const PENDING = 15_000;
const PER_RUN = CHUNKS_PER_RUN * LOT_CHUNK;
/**
 * What a chunk may read per lot it handles (its own rows and what their triggers touch, including
 * the held-tier probe of each activated credit: 0102, and the audit log's probes of its empty
 * context on the transaction's and the customer's update: 0104): no chunk scans the table
 * (115,000 lots).
 */
const ROWS_PER_LOT = 54;
/** Every lot of the backlog is due at this instant. */
const AT = new Date('2031-01-01T00:00:00.000Z');

let tenantId: string;

const customerOf = (index: string) => `printf('cus_scale_%05d', (${index}) % ${CUSTOMERS})`;
const past = (seconds: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', '2030-01-01', printf('-%d seconds', ${seconds}))`;

async function count(query: string): Promise<number> {
  return (await shardD1(tenantId).prepare(query).bind(tenantId).first<{ n: number }>())?.n ?? -1;
}

const dueToExpire = () => count(`SELECT count(*) AS n FROM point_lots WHERE tenant_id = ?1 AND status = 'active' AND expires_at <= '${AT.toISOString()}'`);
const dueToActivate = () => count(`SELECT count(*) AS n FROM point_lots WHERE tenant_id = ?1 AND status = 'pending' AND activated_at IS NULL`);
const dueNotices = () => count(`SELECT count(*) AS n FROM point_lots WHERE tenant_id = ?1 AND notice_sent_at IS NULL AND notice_at IS NOT NULL`);

/** A chunk's work is its own lots', never a scan of every lot of every tenant (115,000 here). */
const expectNoLotScan = (cost: D1Cost) => expectNoScan(cost, ROWS_PER_LOT * LOT_CHUNK);
const measuredRun = () => measuredJobRun(tenantId, AT);

beforeAll(async () => {
  tenantId = (await createTenant('lots-scale')).id;
  const run = (query: string) => shardD1(tenantId).prepare(query).bind(tenantId).run();
  await run(`${numbers(CUSTOMERS)} INSERT INTO customers (id, tenant_id, external_id, xp_balance, lifetime_xp) SELECT ${customerOf('i')}, ?1, printf('ext-scale-%05d', i), 0, 0 FROM n`);
  // Expiring lots of 10 XP, without a credit (as lots carried over from a balance), each due, each with a due notice.
  await run(`${numbers(EXPIRING)} INSERT INTO point_lots (id, tenant_id, user_id, internal_transaction_id, amount, remaining, reversed, status, available_at, expires_at, activated_at, notice_at, created_at, updated_at)
    SELECT printf('lot_exp_%06d', i), ?1, ${customerOf('i')}, NULL, 10, 10, 0, 'active', ${past('i + 86400')}, ${past('i')}, ${past('i + 86400')}, ${past('i + 3600')}, ${past('i + 86400')}, ${past('i + 86400')} FROM n`);
  // Pending credits of 7 XP whose period has ended, each with its pending lot.
  await run(`${numbers(PENDING)} INSERT INTO internal_transactions (id, tenant_id, user_id, type, amount, status, created_at, updated_at)
    SELECT printf('itx_pend_%06d', i), ?1, ${customerOf('i')}, 'xp_earn', 7, 'pending', ${past('i + 7200')}, ${past('i + 7200')} FROM n`);
  await run(`${numbers(PENDING)} INSERT INTO point_lots (id, tenant_id, user_id, internal_transaction_id, amount, remaining, reversed, status, available_at, expires_at, activated_at, notice_at, created_at, updated_at)
    SELECT printf('lot_pend_%06d', i), ?1, ${customerOf('i')}, printf('itx_pend_%06d', i), 7, 7, 0, 'pending', ${past('i')}, NULL, NULL, NULL, ${past('i + 7200')}, ${past('i + 7200')} FROM n`);
  // The balances the expiring lots make, backed by one completed credit each (the ledger and lifetime XP agree).
  await run(`INSERT INTO internal_transactions (id, tenant_id, user_id, type, amount, status)
    SELECT 'itx_open_' || user_id, ?1, user_id, 'xp_earn', sum(amount), 'completed' FROM point_lots WHERE tenant_id = ?1 AND status = 'active' GROUP BY user_id`);
  await run(`UPDATE customers SET xp_balance = s.amount, lifetime_xp = s.amount
    FROM (SELECT user_id, sum(amount) AS amount FROM point_lots WHERE tenant_id = ?1 AND status = 'active' GROUP BY user_id) s WHERE customers.id = s.user_id`);
}, 300_000);

describe('lot jobs over a backlog of 100,000 due lots', () => {
  it('a run issues at most CHUNKS_PER_RUN chunks of each job, takes exactly that many lots and leaves the rest for the next run', { timeout: 300_000 }, async () => {
    expect([await dueToExpire(), await dueToActivate(), await dueNotices()]).toEqual([EXPIRING, PENDING, EXPIRING]);
    const shapes = createDatabase(shardD1(tenantId));
    const perChunk = activationBatch(shapes, AT.toISOString(), LOT_CHUNK).length + 1 + expiryBatch(shapes, AT.toISOString(), LOT_CHUNK).length;
    // The tier reviews' calendar check and their one chunk (none due here: test/points/tier-scale.test.ts).
    const tierJobs = 1 + reviewBatch(shapes, AT.toISOString(), LOT_CHUNK).length;

    const first = await measuredRun();
    expect(first.summary).toEqual({ activated: PER_RUN, noticed: PER_RUN, expired: PER_RUN, reviewed: 0, more: true });
    expect(first.cost.statements).toBeLessThanOrEqual(CHUNKS_PER_RUN * perChunk + tierJobs);
    expect(first.cost.roundTrips).toBeLessThanOrEqual(3 * CHUNKS_PER_RUN + 2);
    expectNoLotScan(first.cost);
    expect([await dueToExpire(), await dueToActivate(), await dueNotices()]).toEqual([EXPIRING - PER_RUN, PENDING - PER_RUN, EXPIRING - PER_RUN]);

    // The next run takes the next chunks: the same bounded cost, no lot taken twice; now with the
    // planner's statistics, as the hourly `PRAGMA optimize` gives it in production (jobs/index.ts).
    await shardD1(tenantId).prepare('ANALYZE').run();
    const second = await measuredRun();
    expect(second.summary).toEqual({ activated: PENDING - PER_RUN, noticed: PER_RUN, expired: PER_RUN, reviewed: 0, more: true });
    expect(second.cost.statements).toBeLessThanOrEqual(CHUNKS_PER_RUN * perChunk + tierJobs);
    expectNoLotScan(second.cost);
    expect([await dueToExpire(), await dueToActivate(), await dueNotices()]).toEqual([EXPIRING - 2 * PER_RUN, 0, EXPIRING - 2 * PER_RUN]);
    // One xp_expire per customer per chunk: a chunk's 500 lots (consecutive expiries) belong to 500 customers.
    expect(await count(`SELECT count(*) AS n FROM internal_transactions WHERE tenant_id = ?1 AND type = 'xp_expire'`)).toBe(2 * PER_RUN);
    expect(await count(`SELECT coalesce(-sum(amount), 0) AS n FROM internal_transactions WHERE tenant_id = ?1 AND type = 'xp_expire'`)).toBe(2 * PER_RUN * 10);
    await expectLotInvariant(tenantId);
  });
});
