import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { signRequest } from '../../src/auth/signature';
import { apiKeys, customers } from '../../src/db/schema';
import { generateCredential } from '../../src/domain/api-keys';
import { newId } from '../../src/lib/ids';
import { apiKeySchema } from '../../src/schemas/api-key';
import { customerSchema } from '../../src/schemas/customer';
import { eventSchema } from '../../src/schemas/event';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { redemptionSchema } from '../../src/schemas/redemption';
import { BASE, expectError, expectOk } from '../support/http';
import { createCustomer } from '../support/ledger';
import { customerWithXp, insertReward } from '../support/rewards';
import { createRuleViaApi } from '../support/rules';
import { createTenant, createTestApiKey, db, portalCall } from '../support/world';
import { isCheckGuard, isGuard, isKeyRead, isLastUsed, isRollbackGuard, isSelect, measure, recorder, uncachedKey } from './recorded';

const app = createApp();
const TX = '/api/v1/gateway/internal-transactions/itx_missing';
/** The idempotency claim, and the statement storing the response with it (docs/decisions/0060-write-round-trips.md). */
const isClaim = (sql: string) => sql.startsWith('insert into "idempotency_records"');
const isCompletion = (sql: string) => sql.startsWith('update "idempotency_records"');
/**
 * After a tenant's first write in an isolate (and then once a minute): whether it has an enabled
 * webhook endpoint, in the background, a task after the response (src/middleware/webhook-dispatch.ts).
 */
const webhookPresenceOnly = { d1: [[expect.stringMatching(/^select "id" from "webhook_endpoints" where/)]], kv: [] };

describe('gateway round trips', () => {
  it('cold: 1 KV read and 3 D1 round trips (the key\'s tenant and shard in the directory, the key in the shard, then the handler unguarded); cache fill and last_used in the background', async () => {
    const tenant = await createTenant();
    const key = await uncachedKey(tenant.id);
    const cold = await measure(key, 'GET', TX);
    expectError(cold.res, 404, 'NOT_FOUND', 'Internal transaction not found');
    expect(cold.path.kv.filter((op) => op === 'get')).toHaveLength(1);
    const pathD1 = cold.path.d1.filter((trip) => !trip.some(isLastUsed));
    expect(pathD1).toHaveLength(3);
    expect(pathD1.slice(0, 2).map((trip) => trip.every(isKeyRead))).toEqual([true, true]);
    expect(pathD1.flat().some(isGuard)).toBe(false);
    expect([...cold.path.kv, ...cold.background.kv].filter((op) => op === 'put')).toHaveLength(1);
    expect([...cold.path.d1, ...cold.background.d1].filter((trip) => trip.some(isLastUsed))).toHaveLength(1);
  });

  it('warm memory: no KV, 1 D1 round trip whose first statement is the key guard (its read form: every statement a SELECT)', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await measure(key, 'GET', TX); // first use writes last_used_at (then throttled)
    const warm = await measure(key, 'GET', TX);
    expectError(warm.res, 404, 'NOT_FOUND', 'Internal transaction not found');
    expect(warm.path.kv).toEqual([]);
    expect(warm.path.d1).toHaveLength(1);
    expect(isCheckGuard(warm.path.d1[0]?.[0] ?? '')).toBe(true);
    expect(warm.path.d1[0]?.length).toBeGreaterThan(1);
    expect(warm.path.d1.flat().every(isSelect)).toBe(true);
    expect(warm.background).toEqual({ d1: [], kv: [] });
  });

  it('warm KV (memory miss): 1 KV read, 1 D1 round trip carrying the guard', async () => {
    const tenant = await createTenant();
    const key = await uncachedKey(tenant.id, { inKv: true });
    const warm = await measure(key, 'GET', TX);
    expectError(warm.res, 404, 'NOT_FOUND', 'Internal transaction not found');
    expect(warm.path.kv).toEqual(['get']);
    const pathD1 = warm.path.d1.filter((trip) => !trip.some(isLastUsed));
    expect(pathD1).toHaveLength(1);
    expect(isCheckGuard(pathD1[0]?.[0] ?? '')).toBe(true);
  });

  it('revoked and cached as revoked: 401 with no D1 round trip', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    expect(expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/api-keys/${key.id}/revoke`), 200, apiKeySchema).status).toBe('revoked');
    const denied = await measure(key, 'GET', TX);
    expectError(denied.res, 401, 'AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired');
    expect(denied.path.d1).toEqual([]);
    expect(denied.background.d1).toEqual([]);
  });

  it('revoked in D1 only (stale caches): 401 from the guard in the 1 D1 round trip; caches refreshed in the background', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await measure(key, 'GET', TX);
    await db(tenant.id).update(apiKeys).set({ status: 'revoked' }).where(eq(apiKeys.id, key.id));
    const denied = await measure(key, 'GET', TX);
    expectError(denied.res, 401, 'AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired');
    // The refresh starts (waitUntil) before the response is done; it is the only read of api_keys.
    const all = [...denied.path.d1, ...denied.background.d1];
    const [request, ...others] = all.filter((trip) => !trip.some(isKeyRead));
    expect(others).toEqual([]);
    expect(isCheckGuard(request?.[0] ?? '')).toBe(true);
    expect(request?.every(isSelect)).toBe(true);
    expect(all.filter((trip) => trip.some(isKeyRead))).toHaveLength(2);
    expect([...denied.path.kv, ...denied.background.kv]).toEqual(['put']);
    const after = await measure(key, 'GET', TX);
    expectError(after.res, 401, 'AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired');
    expect(after.path.d1).toEqual([]);
  });

  it('write: the guard rides in the first D1 round trip (with the signature use and the idempotency claim), never in a round trip of its own', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = newId('cus');
    await db(tenant.id).insert(customers).values({ id: userId, tenantId: tenant.id, externalId: userId, status: 'active' });
    const body = JSON.stringify({ user_id: userId, type: 'xp_earn', amount: '5' });
    await measure(key, 'GET', TX);
    const write = await measure(key, 'POST', '/api/v1/gateway/xp', body);
    expectOk(write.res, 201, internalTransactionSchema);
    expect(write.path.kv).toEqual([]);
    const [first, ...rest] = write.path.d1;
    expect(isRollbackGuard(first?.[0] ?? '')).toBe(true);
    expect(first?.length).toBeGreaterThan(1);
    expect(rest.flat().some(isGuard)).toBe(false);
    expect(first?.some((sql) => sql.startsWith('insert into "gateway_signature_uses"'))).toBe(true);
    expect(first?.some((sql) => sql.startsWith('insert into "idempotency_records"'))).toBe(true);
  });

  it('POST /gateway/xp: 1 D1 round trip, the claim, the ledger entry and the stored response in one batch', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = await createCustomer(tenant.id);
    await measure(key, 'GET', TX);
    const write = await measure(key, 'POST', '/api/v1/gateway/xp', JSON.stringify({ user_id: userId, type: 'xp_earn', amount: '5' }));
    expectOk(write.res, 201, internalTransactionSchema);
    expect(write.path.d1).toHaveLength(1);
    expect(write.path.d1[0]?.filter((sql) => isClaim(sql) || sql.startsWith('insert into "internal_transactions"') || isCompletion(sql))).toHaveLength(3);
    expect(write.path.d1.flat().some((sql) => sql.includes('audit_context'))).toBe(false);
    expect(write.background).toEqual(webhookPresenceOnly);
    // (another amount: a write's signature is single-use within its second)
    const next = await measure(key, 'POST', '/api/v1/gateway/xp', JSON.stringify({ user_id: userId, type: 'xp_earn', amount: '6' }));
    expectOk(next.res, 201, internalTransactionSchema);
    expect(next.path.d1).toHaveLength(1);
    expect(next.background).toEqual({ d1: [], kv: [] });
  });

  it('POST /gateway/redemptions: 2 D1 round trips, the claim with the checks\' reads, then the write with the stored response', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const reward = await insertReward(tenant.id, { xpCost: 10 });
    const userId = await customerWithXp(tenant.id, 10);
    await measure(key, 'GET', TX);
    const write = await measure(key, 'POST', '/api/v1/gateway/redemptions', JSON.stringify({ user_id: userId, reward_id: reward.id }));
    expectOk(write.res, 201, redemptionSchema);
    const [reads, spend, ...rest] = write.path.d1;
    expect(rest).toEqual([]);
    expect(reads?.some(isClaim)).toBe(true);
    expect(spend?.some((sql) => sql.startsWith('insert into "redemptions"'))).toBe(true);
    expect(spend?.some(isCompletion)).toBe(true);
    expect(write.background).toEqual(webhookPresenceOnly);
  });

  it('POST /gateway/events: 1 D1 round trip once the isolate holds the tenant\'s rules (their version guard in the write\'s batch); the first event reads them first', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = await createCustomer(tenant.id);
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'Ten, 5 a day', limits: { per_customer: [{ period: 'day', max_times: 5 }] } });
    await createRuleViaApi(tenant.owner, tenant.id, {
      name: 'Two per dollar over $20',
      conditions: { operator: 'and', predicates: [{ type: 'property', key: 'total', op: 'gt', value: '20' }] },
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' },
    });
    const event = (total: number) => JSON.stringify({ user_id: userId, type: 'order.paid', properties: { total } });
    const isRulesRead = (sql: string) => sql.startsWith('select') && sql.includes('from "earning_rules"');
    const isRulesGuard = (sql: string) => sql.startsWith('INSERT INTO earning_rules_guard');
    await measure(key, 'GET', TX);

    const cold = await measure(key, 'POST', '/api/v1/gateway/events', event(30));
    expect(expectOk(cold.res, 201, eventSchema).effects).toHaveLength(2);
    expect(cold.path.d1.map((trip) => trip.some(isRulesRead))).toEqual([true, false]);

    const warm = await measure(key, 'POST', '/api/v1/gateway/events', event(31));
    expect(expectOk(warm.res, 201, eventSchema).effects.map((effect) => effect.amount)).toEqual(['10', '62']);
    expect(warm.path.d1).toHaveLength(1);
    const [batch = []] = warm.path.d1;
    expect(batch.filter(isRulesGuard)).toHaveLength(1);
    expect(batch.some(isRulesRead)).toBe(false);
    expect(batch.filter((sql) => isClaim(sql) || sql.startsWith('insert into "events"') || isCompletion(sql))).toHaveLength(3);
    expect(warm.background).toEqual({ d1: [], kv: [] });
  });

  it('POST /gateway/customers: 2 D1 round trips to create (lookup, claim and wallet index, then the insert with the stored response), to update or to answer an unchanged profile', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await measure(key, 'GET', TX);
    const externalId = newId('ext');
    const created = await measure(key, 'POST', '/api/v1/gateway/customers', JSON.stringify({ external_id: externalId, email: 'a@example.com' }));
    expectOk(created.res, 201, customerSchema);
    const [lookup, insert, ...rest] = created.path.d1;
    expect(rest).toEqual([]);
    expect(lookup?.some(isClaim)).toBe(true);
    expect(lookup?.some((sql) => sql.startsWith('insert into "sequences"'))).toBe(true);
    expect(insert?.some((sql) => sql.startsWith('insert into "customers"'))).toBe(true);
    expect(insert?.some(isCompletion)).toBe(true);
    // The audit log's context opens and closes the write's own batch: no round trip of its own (docs/OPERATIONS.md).
    expect(insert?.[0]).toMatch(/^INSERT INTO audit_context/);
    expect(insert?.at(-1)).toMatch(/^DELETE FROM audit_context/);

    const updated = await measure(key, 'POST', '/api/v1/gateway/customers', JSON.stringify({ external_id: externalId, email: 'b@example.com' }));
    expectOk(updated.res, 200, customerSchema);
    expect(updated.path.d1).toHaveLength(2);
    expect(updated.path.d1[1]?.some(isCompletion)).toBe(true);

    // Nothing to write: the lookup, then the response stored on its own (the fields in another order: a fresh signature).
    const unchanged = await measure(key, 'POST', '/api/v1/gateway/customers', JSON.stringify({ email: 'b@example.com', external_id: externalId }));
    expectOk(unchanged.res, 200, customerSchema);
    expect(unchanged.path.d1.map((trip) => trip.some(isCompletion))).toEqual([false, true]);
  });

  it('stale timestamp, malformed or unknown key: nothing, or only the lookups', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const { trips, env: countedEnv } = recorder();
    const stale = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'GET', url: TX, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(`${BASE}${TX}`, { headers: stale }), countedEnv, ctx);
    const text = await response.text();
    expectError({ status: response.status, headers: response.headers, body: JSON.parse(text), text }, 401, 'AUTH_INVALID_CREDENTIALS', 'Timestamp is not current');
    await waitOnExecutionContext(ctx);
    expect(trips).toEqual([]);

    const malformed = await measure({ ...key, keyId: `key_${'a'.repeat(502)}` }, 'GET', TX);
    expectError(malformed.res, 401, 'AUTH_INVALID_CREDENTIALS', 'X-Tenant-Key is not an API key id');
    expect([...malformed.path.kv, ...malformed.path.d1, ...malformed.background.kv, ...malformed.background.d1]).toEqual([]);

    const unknown = await measure({ ...key, keyId: generateCredential().keyId }, 'GET', TX);
    expectError(unknown.res, 401, 'AUTH_INVALID_CREDENTIALS', 'Unknown API key');
    expect(unknown.path.kv).toEqual(['get']);
    expect(unknown.path.d1).toHaveLength(1);
  });
});
