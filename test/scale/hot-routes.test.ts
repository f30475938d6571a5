import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { countingD1, measured, newCost, type D1Cost } from '../cohorts/counting-d1';
import { BASE } from '../support/http';
import { chunkMessages, createImportJob, deliverOperations } from '../support/imports';
import { envWithShard } from '../support/race';
import { insertReward, insertTier } from '../support/rewards';
import { createCohort, rulesOf } from '../support/segments';
import { signFresh } from '../support/signing';
import { createTenant, createTestApiKey, shardD1, type TestApiKey, type TestTenant } from '../support/world';
import { seedTenantData } from './seed';

/**
 * The issue-10 claim without a clock: every hot route reads the same rows, statement for statement,
 * in a tenant ten times larger, and no statement it sends scans a tenant-sized table. Rows read are
 * what D1 reports (`meta.rows_read`, triggers included).
 */
const SMALL = 100;
const LARGE = 1_000;
const LIMIT = 10;

type World = { tenant: TestTenant; key: TestApiKey; size: number; rewardId: string; cohortId: string };

async function world(size: number): Promise<World> {
  const tenant = await createTenant(`scale-${size}`);
  const key = await createTestApiKey(tenant.id);
  const reward = await insertReward(tenant.id, { xpCost: 1, status: 'active', stock: null });
  await insertTier(tenant.id, 'Silver', 100);
  await insertTier(tenant.id, 'Gold', 1_000);
  await seedTenantData(tenant.id, size, reward.id);
  const cohort = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'status', op: 'eq', value: 'active' }));
  return { tenant, key, size, rewardId: reward.id, cohortId: cohort.id };
}

const customer = (w: World, index: number) => `cus_${w.tenant.id}_${String(index).padStart(6, '0')}`;
const lastPage = (rows: number) => Math.ceil(rows / LIMIT);

async function gateway(w: World, method: string, path: string, body?: unknown): Promise<Request> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = await signFresh({ keyId: w.key.keyId, secret: w.key.secret, method, url: path, body: text });
  if (text !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'x-idempotency-key': newId('idem') });
  return new Request(`${BASE}${path}`, { method, headers, body: text });
}

function portal(w: World, path: string): Request {
  return new Request(`${BASE}/api/v1/tenant/${w.tenant.id}${path}`, { headers: { authorization: `Bearer ${w.tenant.owner.token}` } });
}

/** The hot routes of the benchmark (docs/PERFORMANCE.md), as the same request shape on a tenant of any size. */
const routes: Record<string, (w: World) => Promise<Request> | Request> = {
  'gateway transaction': (w) => gateway(w, 'GET', `/api/v1/gateway/internal-transactions/itx_${w.tenant.id}_0000042`),
  'gateway customer': (w) => gateway(w, 'GET', `/api/v1/gateway/customers/${customer(w, 42)}`),
  'gateway redemption': (w) => gateway(w, 'GET', `/api/v1/gateway/redemptions/red_${w.tenant.id}_000004`),
  'gateway customers, first page': (w) => gateway(w, 'GET', `/api/v1/gateway/customers?limit=${LIMIT}`),
  'gateway customers, 80% deep': (w) => gateway(w, 'GET', `/api/v1/gateway/customers?limit=${LIMIT}&page=${lastPage(w.size) * 0.8}`),
  'gateway customers, last page': (w) => gateway(w, 'GET', `/api/v1/gateway/customers?limit=${LIMIT}&page=${lastPage(w.size)}`),
  'gateway customers by status': (w) => gateway(w, 'GET', `/api/v1/gateway/customers?limit=${LIMIT}&status=active`),
  'gateway transactions of a customer': (w) => gateway(w, 'GET', `/api/v1/gateway/internal-transactions?user_id=${customer(w, 7)}`),
  'portal transactions by type and status': (w) => portal(w, `/internal-transactions?type=xp_earn&status=completed&limit=${LIMIT}`),
  'portal transactions, last page': (w) => portal(w, `/internal-transactions?limit=${LIMIT}&page=${lastPage(w.size * 3)}`),
  'portal customers, 80% deep': (w) => portal(w, `/customers?limit=${LIMIT}&page=${lastPage(w.size) * 0.8}`),
  'portal redemptions': (w) => portal(w, `/redemptions?limit=${LIMIT}`),
  'portal cohort members, first page': (w) => portal(w, `/cohorts/${w.cohortId}/members?limit=${LIMIT}`),
  'portal cohort members, last page': (w) => portal(w, `/cohorts/${w.cohortId}/members?limit=${LIMIT}&page=${lastPage(w.size * 0.9)}`),
  'portal cohorts': (w) => portal(w, '/cohorts'),
  'portal top countries': (w) => portal(w, '/analytics/top-countries'),
  'portal top rewards': (w) => portal(w, '/analytics/top-rewards'),
  'gateway earn': (w) => gateway(w, 'POST', '/api/v1/gateway/xp', { user_id: customer(w, 11), type: 'xp_earn', amount: '5' }),
  'gateway redemption create': (w) => gateway(w, 'POST', '/api/v1/gateway/redemptions', { user_id: customer(w, 12), reward_id: w.rewardId }),
};

/** Tables whose size grows with the tenant: a statement may search them, never scan them. */
const TENANT_SIZED = ['customers', 'internal_transactions', 'redemptions', 'cohort_memberships', 'customer_attribute_values', 'internal_wallets'];

/** The statements of `cost` whose plan, on the directory or on the tenant's shard (where they ran), scans a tenant-sized table. */
async function scansOf(cost: D1Cost, tenantId: string): Promise<string[]> {
  const found: string[] = [];
  for (const trip of cost.trips) {
    for (const [index, sql] of trip.sql.entries()) {
      if (!/^\s*(select|with)/i.test(sql)) continue;
      const plan = await (trip.database === 'directory' ? env.DB : shardD1(tenantId)).prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...(trip.params[index] ?? [])).all<{ detail: string }>();
      for (const { detail } of plan.results) {
        const scanned = /^SCAN (\w+)/.exec(detail)?.[1];
        if (scanned && TENANT_SIZED.includes(scanned)) found.push(`${detail} in: ${sql}`);
      }
    }
  }
  return found;
}

describe('hot routes at ten times the tenant size', () => {
  let small: World;
  let large: World;
  beforeAll(async () => {
    small = await world(SMALL);
    large = await world(LARGE);
  }, 120_000);

  for (const [name, request] of Object.entries(routes)) {
    it(`${name}: the same rows read, no scan of a tenant-sized table`, async () => {
      const onSmall = await measured(await request(small));
      const onLarge = await measured(await request(large));
      expect(onSmall.response.status, onSmall.response.text).toBeLessThan(300);
      expect(onLarge.response.status, onLarge.response.text).toBe(onSmall.response.status);
      expect(onLarge.cost.statements).toBe(onSmall.cost.statements);
      expect(onLarge.cost.rowsRead, JSON.stringify(onLarge.cost.trips, null, 1)).toBeLessThanOrEqual(onSmall.cost.rowsRead + 2);
      expect(await scansOf(onLarge.cost, large.tenant.id)).toEqual([]);
    });
  }

  it('import chunks (customers moved and created, balances credited): the same rows read', async () => {
    const ext = (index: number) => `ext-${String(index).padStart(6, '0')}`;
    const chunkCost = async (w: World) => {
      const files = {
        customers: ['external_id,email,status', ...[1, 2, 3].map((i) => `${ext(i)},moved${i}@example.com,suspended`), 'new-1,,', 'new-2,,', ''].join('\n'),
        balances: ['external_id,amount', ...[4, 5, 6].map((i) => `${ext(i)},25`), ''].join('\n'),
      };
      const cost = newCost();
      for (const [kind, csv] of Object.entries(files) as ['customers' | 'balances', string][]) {
        const job = await createImportJob(w.tenant.owner, w.tenant.id, kind, csv);
        const delivered = await deliverOperations(await chunkMessages(w.tenant.id, job.id), envWithShard(w.tenant.id, countingD1(shardD1(w.tenant.id), cost)));
        expect(delivered.retryMessages).toEqual([]);
      }
      return cost;
    };
    const onSmall = await chunkCost(small);
    const onLarge = await chunkCost(large);
    expect(onLarge.statements).toBe(onSmall.statements);
    // A few rows of deeper indexes at most: a scan of the tenant's customers would add LARGE - SMALL.
    expect(onLarge.rowsRead, JSON.stringify(onLarge.trips, null, 1)).toBeLessThanOrEqual(onSmall.rowsRead + SMALL / 10);
    expect(await scansOf(onLarge, large.tenant.id)).toEqual([]);
  });
});
