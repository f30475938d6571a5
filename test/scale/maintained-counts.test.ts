import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { BASE, expectOk } from '../support/http';
import { race } from '../support/race';
import { insertReward, redeem } from '../support/rewards';
import { signFresh } from '../support/signing';
import { createTenant, createTestApiKey, gatewayCall, portalCall, shardD1 } from '../support/world';

type Bucket = { subject: string; bucket: string; value: number };

/** Every count src/db/sql/list-positions-and-counts.sql maintains, computed live from the rows (independently of the triggers). */
const LIVE_COUNTS = `
  SELECT 'customers' AS subject, 'all' AS bucket, count(*) AS value FROM customers WHERE tenant_id = ?1
  UNION ALL SELECT 'customers', 'status=' || status, count(*) FROM customers WHERE tenant_id = ?1 GROUP BY status
  UNION ALL SELECT 'active_fans', coalesce(country_code, ''), count(*) FROM customers
    WHERE tenant_id = ?1 AND status IN ('active', 'reinstated') GROUP BY country_code
  UNION ALL SELECT 'internal_transactions', 'all', count(*) FROM internal_transactions WHERE tenant_id = ?1
  UNION ALL SELECT 'internal_transactions', 'type=' || type, count(*) FROM internal_transactions WHERE tenant_id = ?1 GROUP BY type`;
const LIVE_COUNTS_CONTINUED = `
  SELECT 'internal_transactions' AS subject, 'status=' || status AS bucket, count(*) AS value FROM internal_transactions WHERE tenant_id = ?1 GROUP BY status
  UNION ALL SELECT 'internal_transactions', 'type=' || type || '&status=' || status, count(*) FROM internal_transactions
    WHERE tenant_id = ?1 GROUP BY type, status
  UNION ALL SELECT 'redemptions', 'all', count(*) FROM redemptions WHERE tenant_id = ?1
  UNION ALL SELECT 'redemptions', 'status=' || status, count(*) FROM redemptions WHERE tenant_id = ?1 GROUP BY status
  UNION ALL SELECT 'standing_redemptions', reward_id, count(*) FROM redemptions
    WHERE tenant_id = ?1 AND status NOT IN ('failed', 'canceled') GROUP BY reward_id`;

async function liveCounts(tenantId: string): Promise<Bucket[]> {
  const [first, second] = await shardD1(tenantId).batch<Bucket>([shardD1(tenantId).prepare(LIVE_COUNTS).bind(tenantId), shardD1(tenantId).prepare(LIVE_COUNTS_CONTINUED).bind(tenantId)]);
  return [...first!.results, ...second!.results].filter((row) => row.value > 0);
}

async function maintainedCounts(tenantId: string): Promise<Bucket[]> {
  const rows = await shardD1(tenantId).prepare('SELECT subject, bucket, value FROM tenant_counts WHERE tenant_id = ? AND value <> 0').bind(tenantId).all<Bucket>();
  return rows.results;
}

const sorted = (rows: Bucket[]) => [...rows].sort((a, b) => `${a.subject} ${a.bucket}`.localeCompare(`${b.subject} ${b.bucket}`));

describe('maintained counts and list positions (migrations/shard/0006)', () => {
  it('equal the live counts after creations, earns, status moves, redemptions and a cancel', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const reward = await insertReward(tenant.id, { xpCost: 10, status: 'active', stock: null });
    const countries = ['DE', 'DE', 'FR', null, 'JP', 'FR'];
    const ids: string[] = [];
    for (const [index, country] of countries.entries()) {
      const body = { external_id: `fan-${index}`, ...(country ? { country_code: country } : {}) };
      const res = await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body });
      ids.push((res.body as { data: { id: string } }).data.id);
    }
    for (const id of ids) await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: id, type: 'xp_earn', amount: '50' } });
    await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: ids[0], type: 'xp_bonus', amount: '5' } });
    const redemptionIds: string[] = [];
    for (const id of ids.slice(0, 3)) redemptionIds.push(((await redeem(key, id, reward.id)).body as { data: { id: string } }).data.id);
    await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/redemptions/${redemptionIds[1]}/cancel`);
    await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/customers/${ids[2]}`, { status: 'suspended' });
    await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/customers/${ids[4]}`, { status: 'suspended' });
    await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/customers/${ids[4]}`, { status: 'reinstated' });

    const live = await liveCounts(tenant.id);
    expect(live.find((row) => row.subject === 'redemptions' && row.bucket === 'status=canceled')?.value).toBe(1);
    expect(live.find((row) => row.subject === 'customers' && row.bucket === 'status=reinstated')?.value).toBe(1);
    expect(sorted(await maintainedCounts(tenant.id))).toEqual(sorted(live));
  });

  it('number customers created at once 1..n, and every page shows each exactly once', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const requests = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const body = JSON.stringify({ external_id: `at-once-${index}` });
        const path = '/api/v1/gateway/customers';
        const headers = await signFresh({ keyId: key.keyId, secret: key.secret, method: 'POST', url: path, body });
        Object.assign(headers, { 'content-type': 'application/json', 'x-idempotency-key': newId('idem') });
        return new Request(`${BASE}${path}`, { method: 'POST', headers, body });
      }),
    );
    const { responses, held } = await race(requests, /insert into "customers"/i);
    expect(held).toBe(20);
    expect(responses.map((res) => res.status)).toEqual(Array(20).fill(201));

    const positions = await shardD1(tenant.id).prepare('SELECT seq FROM customers WHERE tenant_id = ? ORDER BY seq').bind(tenant.id).all<{ seq: number }>();
    expect(positions.results.map((row) => row.seq)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const data = expectOk(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/customers?limit=7&page=${page}`), 200, pageSchema(customerSchema));
      expect(data.total_count).toBe(20);
      seen.push(...data.items.map((item) => item.external_id));
    }
    expect([...seen].sort()).toEqual(Array.from({ length: 20 }, (_, index) => `at-once-${index}`).sort());
  });
});
