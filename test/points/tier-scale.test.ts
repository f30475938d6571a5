import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHUNKS_PER_RUN, LOT_CHUNK } from '../../src/services/point-jobs';
import type { D1Cost } from '../cohorts/counting-d1';
import { expectNoScan, measuredJobRun, numbers } from '../support/job-cost';
import { createTenant, shardD1 } from '../support/world';

/**
 * The tier review job is bounded per run whatever the backlog (docs/decisions/0102-tier-retention.md):
 * with 12,000 held customers due for review at once (each with its credit lots, as real data has),
 * one run reviews exactly CHUNKS_PER_RUN x LOT_CHUNK of them, says there is `more`, and the next
 * run takes the rest; no chunk scans the customers or lots of the table.
 */

const CUSTOMERS = 12_000;
const LOTS_PER_CUSTOMER = 3;
const PER_RUN = CHUNKS_PER_RUN * LOT_CHUNK;
/** What a chunk may read per customer it reviews (its lots, the ladder, its review dates, the triggers): no scan. */
const ROWS_PER_CUSTOMER = 60;
/** Every held tier is due for review at this instant. */
const AT = new Date('2031-01-01T00:00:00.000Z');

let tenantId: string;

async function count(query: string): Promise<number> {
  return (await shardD1(tenantId).prepare(query).bind(tenantId).first<{ n: number }>())?.n ?? -1;
}

const heldBy = (tier: string) => count(`SELECT count(*) AS n FROM customers WHERE tenant_id = ?1 AND tier_held = 1 AND tier_id = '${tier}'`);

const expectNoCustomerScan = (cost: D1Cost) => expectNoScan(cost, ROWS_PER_CUSTOMER * LOT_CHUNK);
const measuredRun = () => measuredJobRun(tenantId, AT);

beforeAll(async () => {
  tenantId = (await createTenant('tier-scale')).id;
  const run = (query: string) => shardD1(tenantId).prepare(query).bind(tenantId).run();
  await run(`INSERT INTO tier_rules (id, tenant_id, tier_name, min_xp_threshold, created_at, updated_at) VALUES
    ('tier_scale_silver', ?1, 'Silver', 100, '2030-01-01', '2030-01-01'), ('tier_scale_gold', ?1, 'Gold', 1000, '2030-01-01', '2030-01-01')`);
  await run(`${numbers(CUSTOMERS)} INSERT INTO customers (id, tenant_id, external_id, xp_balance, lifetime_xp, tier_held, tier_id, tier_valid_until)
    SELECT printf('cus_tscale_%05d', i), ?1, printf('ext-tscale-%05d', i), 0, 1200, 1, 'tier_scale_gold', '${AT.toISOString()}' FROM n`);
  // Lots earned long before the review's period: they no longer count, so every customer drops a step.
  await run(`${numbers(CUSTOMERS * LOTS_PER_CUSTOMER)} INSERT INTO point_lots (id, tenant_id, user_id, internal_transaction_id, amount, remaining, reversed, status, available_at, activated_at, created_at, updated_at)
    SELECT printf('lot_tscale_%06d', i), ?1, printf('cus_tscale_%05d', 1 + i % ${CUSTOMERS}), printf('itx_tscale_%06d', i), 400, 0, 0, 'spent',
      '2029-01-01T00:00:00.000Z', '2029-01-01T00:00:00.000Z', '2029-01-01T00:00:00.000Z', '2029-01-01T00:00:00.000Z' FROM n`);
  // The settings last: a customer inserted under earned_in_period would hold the tier of 0 XP.
  await run(`INSERT INTO program_settings (tenant_id, timezone, tiers_basis, tiers_period, tiers_period_months, tiers_period_seconds, tiers_downgrade, tiers_review, created_at, updated_at)
    VALUES (?1, 'UTC', 'earned_in_period', 'P1M', 1, 0, 'one_step', 'monthly', '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')`);
  // Review dates far enough ahead that the job's calendar check finds nothing to top up.
  await run(`${numbers(600)} INSERT INTO tier_review_dates (tenant_id, review_at, window_start)
    SELECT ?1, strftime('%Y-%m-%dT%H:%M:%fZ', '2030-01-01', printf('+%d months', i)), strftime('%Y-%m-%dT%H:%M:%fZ', '2030-01-01', printf('+%d months', i - 1)) FROM n`);
}, 300_000);

describe('tier reviews over a backlog of 12,000 customers due at once', () => {
  it('a run reviews at most CHUNKS_PER_RUN chunks of customers, each once, and leaves the rest for the next run', { timeout: 300_000 }, async () => {
    const first = await measuredRun();
    expect(first.summary).toMatchObject({ reviewed: PER_RUN, more: true });
    expect(first.cost.roundTrips).toBeLessThanOrEqual(4 * CHUNKS_PER_RUN + 1);
    expectNoCustomerScan(first.cost);
    expect([await heldBy('tier_scale_gold'), await heldBy('tier_scale_silver')]).toEqual([CUSTOMERS - PER_RUN, PER_RUN]);

    await shardD1(tenantId).prepare('ANALYZE').run();
    const second = await measuredRun();
    expect(second.summary).toMatchObject({ reviewed: CUSTOMERS - PER_RUN, more: false });
    expectNoCustomerScan(second.cost);
    expect([await heldBy('tier_scale_gold'), await heldBy('tier_scale_silver')]).toEqual([0, CUSTOMERS]);
    // The next review is the first whose period starts at or after this one: a month on.
    expect(await count(`SELECT count(*) AS n FROM customers WHERE tenant_id = ?1 AND tier_valid_until = '2031-02-01T00:00:00.000Z'`)).toBe(CUSTOMERS);
  });
});
