import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isReadOnlySql, LeadingD1, type Leader } from '../../src/data/leading-d1';
import { apiKeys, customers, internalTransactions } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { expectError } from '../support/http';
import { createCustomer } from '../support/ledger';
import { insertReward, insertTier } from '../support/rewards';
import { createTenant, createTestApiKey, db, shardD1 } from '../support/world';
import { isCheckGuard, isKeyRead, isLastUsed, isSelect, measure, uncachedKey } from './recorded';

/** The request's own statements: not the throttled `last_used_at` write (waitUntil, once a minute per key and isolate). */
const ownStatements = (trips: string[][]) => trips.flat().filter((sql) => !isLastUsed(sql));

/**
 * A gateway read never opens a write transaction (so it can later be served by a D1 read replica),
 * yet a revoked key is refused on the very next request: its first batch carries the read form of
 * the key guard, a SELECT whose answer the gateway checks before anything is answered.
 */
async function tenantWithData() {
  const tenant = await createTenant();
  const userId = await createCustomer(tenant.id, { xp: 50 });
  const tierId = await insertTier(tenant.id, 'Gold', 10);
  await insertReward(tenant.id);
  const [entry] = await db(tenant.id).select().from(internalTransactions).where(eq(internalTransactions.userId, userId));
  return { tenant, userId, tierId, transactionId: entry?.id ?? '' };
}

function readsOf(data: Awaited<ReturnType<typeof tenantWithData>>) {
  const { userId, tierId, transactionId } = data;
  return [
    '/api/v1/gateway/customers',
    `/api/v1/gateway/customers/${userId}`,
    `/api/v1/gateway/customers/${userId}/balances`,
    `/api/v1/gateway/customers/${userId}/points`,
    `/api/v1/gateway/customers/${userId}/point-lots`,
    `/api/v1/gateway/customers/${userId}/tier/${tierId}/eligibility`,
    '/api/v1/gateway/tiers',
    '/api/v1/gateway/rewards',
    `/api/v1/gateway/internal-transactions?user_id=${userId}`,
    `/api/v1/gateway/internal-transactions/${transactionId}`,
    '/api/v1/gateway/redemptions/rdm_missing',
  ];
}

describe('gateway reads send no write', () => {
  it('every gateway GET: only SELECT statements, the first batch led by the read form of the key guard', async () => {
    const data = await tenantWithData();
    const key = await createTestApiKey(data.tenant.id);
    for (const path of readsOf(data)) {
      const read = await measure(key, 'GET', path);
      expect([200, 404], `${path}: ${read.res.text}`).toContain(read.status);
      const statements = ownStatements([...read.path.d1, ...read.background.d1]);
      expect(statements.filter((sql) => !isSelect(sql)), path).toEqual([]);
      expect(isCheckGuard(statements[0] ?? ''), path).toBe(true);
    }
  });

  it('a key no cache knows (cold location): still only SELECTs on the response path', async () => {
    const data = await tenantWithData();
    const key = await uncachedKey(data.tenant.id);
    const read = await measure(key, 'GET', `/api/v1/gateway/customers/${data.userId}`);
    expect(read.status, read.res.text).toBe(200);
    expect(ownStatements(read.path.d1).filter((sql) => !isSelect(sql))).toEqual([]);
  });

  it('refuses a key revoked in D1 only on the very next GET, without answering what the batch read', async () => {
    const data = await tenantWithData();
    const key = await createTestApiKey(data.tenant.id);
    const path = `/api/v1/gateway/internal-transactions/${data.transactionId}`;
    expect((await measure(key, 'GET', path)).status).toBe(200);
    await db(data.tenant.id).update(apiKeys).set({ status: 'revoked' }).where(eq(apiKeys.id, key.id));
    const denied = await measure(key, 'GET', path);
    expectError(denied.res, 401, 'AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired');
    expect(denied.res.text).not.toContain(data.transactionId);
    // Besides the background re-read of the key into the caches, one round trip: the refused read.
    const request = denied.path.d1.filter((trip) => !trip.some(isKeyRead));
    expect(request).toHaveLength(1);
    expect(request.flat().every(isSelect)).toBe(true);
  });
});

/** A guard that refuses or allows as told, in both forms, over a real shard database. */
function testGuard(d1: D1Database, allowed: boolean): Leader {
  const refusal = new Error('refused');
  return {
    write: [d1.prepare('INSERT INTO api_key_guard (key_id) SELECT ?1 WHERE NOT ?2').bind('test', allowed ? 1 : 0)],
    read: d1.prepare('SELECT ?1 AS allowed').bind(allowed ? 1 : 0),
    refusedBy: (error) => String(error instanceof Error ? `${error.message} ${String(error.cause)}` : error).includes('api_key_not_active'),
    refusal: () => refusal,
  };
}

describe('LeadingD1: the guard takes the form the batch needs', () => {
  it('a refused batch that writes is rolled back whole (the rollback form)', async () => {
    const tenant = await createTenant();
    const guarded = new LeadingD1(shardD1(tenant.id), testGuard(shardD1(tenant.id), false));
    const id = newId('cus');
    const insert = guarded.binding.prepare('INSERT INTO customers (id, tenant_id, external_id, status) VALUES (?1, ?2, ?1, ?3)').bind(id, tenant.id, 'active');
    await expect(guarded.binding.batch([insert])).rejects.toThrow('refused');
    expect(await db(tenant.id).select().from(customers).where(and(eq(customers.tenantId, tenant.id), eq(customers.id, id)))).toEqual([]);
    await expect(guarded.binding.prepare('SELECT 1').first()).rejects.toThrow('refused');
  });

  it('a refused batch that only reads throws the refusal instead of its results, and every later call too', async () => {
    const tenant = await createTenant();
    const guarded = new LeadingD1(shardD1(tenant.id), testGuard(shardD1(tenant.id), false));
    await expect(guarded.binding.prepare('SELECT 42 AS answer').first()).rejects.toThrow('refused');
    await expect(guarded.confirm()).rejects.toThrow('refused');
    expect(guarded.state).not.toBe('confirmed');
  });

  it('an allowed guard is confirmed by the first batch, read or write, and rides no further batch', async () => {
    const tenant = await createTenant();
    const shard = shardD1(tenant.id);
    const reading = new LeadingD1(shard, testGuard(shard, true));
    expect(await reading.binding.prepare('SELECT 42 AS answer').first('answer')).toBe(42);
    expect(reading.state).toBe('confirmed');
    const writing = new LeadingD1(shard, testGuard(shard, true));
    const id = newId('cus');
    await writing.binding.prepare('INSERT INTO customers (id, tenant_id, external_id, status) VALUES (?1, ?2, ?1, ?3)').bind(id, tenant.id, 'active').run();
    expect(writing.state).toBe('confirmed');
    expect(await db(tenant.id).select({ id: customers.id }).from(customers).where(eq(customers.id, id))).toEqual([{ id }]);
    await writing.confirm();
  });

  it.each([
    ['select * from "customers" where "id" = ?', true],
    ['SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = ?1) AS allowed', true],
    ['values (1)', true],
    ['with t as (select 1) select * from t', true],
    ['with t as (select 1) insert into x select * from t', false],
    ['insert into "customers" ("id") values (?)', false],
    ['update "customers" set "status" = ?', false],
    ['delete from "customers"', false],
    ['replace into x values (1)', false],
    ['PRAGMA optimize', false],
    ['create table x (a)', false],
    ['', false],
  ])('isReadOnlySql(%j) is %s', (sql, readOnly) => {
    expect(isReadOnlySql(sql)).toBe(readOnly);
  });
});
