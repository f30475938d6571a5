import type { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { canonicalSignedUrl } from '../../src/auth/signature';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { tierRuleSchema } from '../../src/schemas/tier';
import { envelopeOf } from '../../src/lib/envelope';
import { createTenant, createTestApiKey } from '../support/world';
import { gatewaySdk } from './harness';

async function gatewayTenant() {
  const tenant = await createTenant('sdk');
  return { tenant, key: await createTestApiKey(tenant.id) };
}

/** The whole body strictly, as expectOk does for raw calls: the SDK hands back the envelope. */
const strict = <T extends z.ZodType>(schema: T, body: unknown) => (envelopeOf(schema).parse(body) as { data: z.infer<T> }).data;

describe('SDK gateway client (signed calls through the Worker)', () => {
  it('signs a GET: a named method per operationId answers the typed envelope', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent } = gatewaySdk(key);
    const { data, error, response } = await gateway.gatewayListTiers();
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(200);
    expect(strict(pageSchema(tierRuleSchema), data).items).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('x-tenant-key')).toBe(key.keyId);
    expect(sent[0]!.headers.get('x-tenant-signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(sent[0]!.headers.has('x-idempotency-key')).toBe(false);
  });

  it('signs writes over the exact JSON sent: a customer is created, then earns XP', async () => {
    const { tenant, key } = await gatewayTenant();
    const { gateway, sent } = gatewaySdk(key);
    const created = await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-user-1', email: 'sdk@example.com' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const customer = strict(customerSchema, created.data);
    const earned = await gateway.gatewayEarnXp({ body: { user_id: customer.id, type: 'xp_earn', amount: '150', metadata: { order_id: 'o-1' } } });
    expect(earned.response.status, JSON.stringify(earned.error)).toBe(201);
    expect(strict(internalTransactionSchema, earned.data)).toMatchObject({ tenant_id: tenant.id, user_id: customer.id, type: 'xp_earn', amount: '150', status: 'completed' });
    // The body signed is the body sent, compact, and the Worker re-serializes it to the same string.
    const body = sent[1]!.body;
    expect(body).toBe(JSON.stringify(JSON.parse(body)));
    expect(sent[1]!.headers.get('content-type')).toBe('application/json');
    const read = await gateway.gatewayGetCustomer({ params: { path: { userId: customer.id } } });
    expect(strict(customerSchema, read.data)).toMatchObject({ xp_balance: '150', lifetime_xp: '150' });
  });

  it('signs the exact url of a query with several parameters, characters the runtime encodes included', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent } = gatewaySdk(key);
    const listed = await gateway.gatewayListInternalTransactions({ params: { query: { type: 'xp_earn', status: 'completed', page: 2, limit: 5 } } });
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
    const url = new URL(sent[0]!.url);
    expect(url.pathname + url.search).toBe('/api/v1/gateway/internal-transactions?type=xp_earn&status=completed&page=2&limit=5');
    // encodeURIComponent leaves ' as is; the request url (what is sent and signed) has it as %27.
    const tiers = await gateway.gatewayListTiers({ params: { query: { tier_name: "Gold 'Plus' Grün", limit: 1 } } });
    expect(tiers.response.status, JSON.stringify(tiers.error)).toBe(200);
    expect(canonicalSignedUrl(sent[1]!.url)).toBe('/api/v1/gateway/tiers?tier_name=Gold%20%27Plus%27%20Gr%C3%BCn&limit=1');
  });

  it('gives every write its own idempotency key, and a repeat with the same key is the stored response', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent } = gatewaySdk(key);
    const first = await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-auto-key' } });
    const second = await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-other' } });
    const [firstKey, secondKey] = sent.map((request) => request.headers.get('x-idempotency-key'));
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(secondKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(firstKey).not.toBe(secondKey);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(second.response.status).toBe(201);

    const replay = await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-auto-key' }, params: { header: { 'x-idempotency-key': firstKey! } } });
    expect(replay.response.status).toBe(201);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect(sent[2]!.headers.get('x-idempotency-key')).toBe(firstKey);
  });

  it('signs two identical writes of the same second a second apart (a signature of a write is single-use): both run', async () => {
    const { key } = await gatewayTenant();
    const frozen = Date.now();
    const { gateway, sent } = gatewaySdk(key, { now: () => frozen });
    const created = await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-twice' } });
    const userId = strict(customerSchema, created.data).id;
    const body = { user_id: userId, type: 'xp_earn' as const, amount: '10' };
    const one = await gateway.gatewayEarnXp({ body });
    const two = await gateway.gatewayEarnXp({ body });
    expect([one.response.status, two.response.status], JSON.stringify(two.error)).toEqual([201, 201]);
    expect(strict(internalTransactionSchema, one.data).id).not.toBe(strict(internalTransactionSchema, two.data).id);
    const [a, b] = [sent[1]!, sent[2]!].map((request) => Number(request.headers.get('x-tenant-timestamp')));
    expect(b).toBe(a! + 1);
  });

  it('signs again at once after 401 SIGNATURE_REPLAYED: another client sent the same write in the same second', async () => {
    const { key } = await gatewayTenant();
    const frozen = Date.now();
    const one = gatewaySdk(key, { now: () => frozen });
    const other = gatewaySdk(key, { now: () => frozen });
    const userId = strict(customerSchema, (await one.gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-two-clients' } })).data).id;
    const body = { user_id: userId, type: 'xp_earn' as const, amount: '5' };
    expect((await one.gateway.gatewayEarnXp({ body })).response.status).toBe(201);
    const second = await other.gateway.gatewayEarnXp({ body });
    expect(second.response.status, JSON.stringify(second.error)).toBe(201);
    const timestamps = other.sent.map((request) => Number(request.headers.get('x-tenant-timestamp')));
    expect(timestamps).toEqual([Math.floor(frozen / 1000), Math.floor(frozen / 1000) + 1]);
    expect(new Set(other.sent.map((request) => request.headers.get('x-idempotency-key'))).size).toBe(1);
    expect(other.delays).toEqual([]);
  });

  it('exposes the typed openapi-fetch client, signing and retrying alike', async () => {
    const { key } = await gatewayTenant();
    const { gateway } = gatewaySdk(key);
    const { data, response } = await gateway.client.GET('/gateway/rewards', { params: { query: { limit: 3 } } });
    expect(response.status).toBe(200);
    expect(data?.data.items).toEqual([]);
  });

  it('answers a refused call with the typed error envelope (wrong secret: 401, not retried)', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent } = gatewaySdk({ ...key, secret: `${key.secret}x` });
    const { data, error, response } = await gateway.gatewayListTiers();
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error?.error.code).toBe('AUTH_INVALID_CREDENTIALS');
    expect(sent).toHaveLength(1);
  });
});
