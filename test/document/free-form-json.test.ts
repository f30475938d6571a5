import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onchainAssets, rewards } from '../../src/db/schema';
import { MAX_JSON_BYTES, MAX_JSON_DEPTH, TOO_DEEP, TOO_LARGE } from '../../src/lib/json-bounds';
import { MAX_BODY_NESTING } from '../../src/middleware/body-limit';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { rewardSchema } from '../../src/schemas/reward';
import { call, expectError, expectOk, type JsonResponse } from '../support/http';
import { createCustomer, ledgerState } from '../support/ledger';
import { signFresh } from '../support/signing';
import { createTenant, createTestApiKey, db, gatewayCall, type TestApiKey, type TestTenant } from '../support/world';
import { insertAssetRow } from '../onchain-assets/helpers';

/*
 * Free-form JSON (`metadata`) is any JSON value within one bound: at most MAX_JSON_DEPTH levels of
 * objects and arrays and MAX_JSON_BYTES as compact JSON (issue 20: 5,193 levels were a 500 on the
 * gateway, 30,000 were stored by rewards and assets). Bodies are sent as raw text: a test's own
 * JSON.stringify of such a value is what overflowed.
 */

const XP = '/api/v1/gateway/xp';
/** `levels` nested arrays, as JSON text. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** An object taking exactly `bytes` bytes as compact JSON. */
const ofBytes = (bytes: number) => JSON.stringify({ note: 'x'.repeat(bytes - JSON.stringify({ note: '' }).length) });

/** A signed gateway write of an exact body text. */
async function gatewayRaw(key: TestApiKey, path: string, body: string, idempotencyKey = crypto.randomUUID()): Promise<JsonResponse> {
  const signed = await signFresh({ keyId: key.keyId, secret: key.secret, method: 'POST', url: path, body });
  return call('POST', path, { headers: { ...signed, 'content-type': 'application/json', 'X-Idempotency-Key': idempotencyKey }, rawBody: body });
}

function portalRaw(tenant: TestTenant, method: string, path: string, body: string): Promise<JsonResponse> {
  return call(method, `/api/v1/tenant/${tenant.id}${path}`, { headers: { authorization: `Bearer ${tenant.owner.token}`, 'content-type': 'application/json' }, rawBody: body });
}

function expectRefusedAt(res: JsonResponse, path: string, message: string) {
  expect(expectError(res, 422, 'VALIDATION_FAILED').errors).toEqual([{ path, message }]);
}

async function earnSetup() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const userId = await createCustomer(tenant.id);
  const earn = (metadata: string, idempotencyKey?: string) => gatewayRaw(key, XP, `{"user_id":"${userId}","type":"xp_earn","amount":"5","metadata":${metadata}}`, idempotencyKey);
  return { tenant, key, userId, earn };
}

describe('POST /gateway/xp metadata', () => {
  it.each([5193, 30000, MAX_BODY_NESTING + 1, MAX_JSON_DEPTH + 1])('%i levels deep: 422 at metadata (never a 500), nothing earned', async (levels) => {
    const { tenant, userId, earn } = await earnSetup();
    expectRefusedAt(await earn(nested(levels)), 'metadata', TOO_DEEP);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, entries: 0 });
  });

  it(`over ${MAX_JSON_BYTES} bytes: 422 at metadata, nothing earned`, async () => {
    const { tenant, userId, earn } = await earnSetup();
    expectRefusedAt(await earn(ofBytes(MAX_JSON_BYTES + 1)), 'metadata', TOO_LARGE);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, entries: 0 });
  });

  it(`at exactly ${MAX_JSON_DEPTH} levels and exactly ${MAX_JSON_BYTES} bytes: accepted and answered as sent`, async () => {
    const { earn } = await earnSetup();
    for (const metadata of [nested(MAX_JSON_DEPTH), ofBytes(MAX_JSON_BYTES)]) {
      const transaction = expectOk(await earn(metadata), 201, internalTransactionSchema);
      expect(JSON.stringify(transaction.metadata)).toBe(metadata);
    }
  });

  it('a refused body claims nothing: its idempotency key serves the corrected request', async () => {
    const { earn } = await earnSetup();
    expectRefusedAt(await earn(nested(30000), 'deep-then-fixed'), 'metadata', TOO_DEEP);
    expectOk(await earn('{"order_id":"o-1"}', 'deep-then-fixed'), 201, internalTransactionSchema);
  });

  it('a body nested past the guard is refused before authentication, like an oversized one: no credentials needed', async () => {
    const body = `{"user_id":"cus_x","type":"xp_earn","amount":"5","metadata":${nested(30000)}}`;
    expectRefusedAt(await call('POST', XP, { headers: { 'content-type': 'application/json' }, rawBody: body }), 'metadata', TOO_DEEP);
    // Under the guard, authentication answers first as before.
    const shallow = `{"user_id":"cus_x","type":"xp_earn","amount":"5","metadata":${nested(MAX_JSON_DEPTH + 1)}}`;
    expectError(await call('POST', XP, { headers: { 'content-type': 'application/json' }, rawBody: shallow }), 401, 'AUTH_INVALID_CREDENTIALS');
  });

  it('names the top-level field the nesting is under, wherever in it', async () => {
    const { key } = await earnSetup();
    const res = await gatewayRaw(key, '/api/v1/gateway/customers', `{"external_id":"e-1","username":{"a":[${nested(30000)}]}}`);
    expectRefusedAt(res, 'username', TOO_DEEP);
    // Brackets inside strings are text, not nesting: this one goes on to the route (no such customer).
    const notes = `"[${'['.repeat(900)}`;
    expectError(await gatewayCall(key, 'POST', XP, { body: { user_id: 'cus_nobody', type: 'xp_earn', amount: '1', notes } }), 404, 'NOT_FOUND', 'Customer not found');
  });
});

describe('portal metadata (rewards, onchain assets)', () => {
  const deep = nested(30000);

  it('reward create and PATCH 30,000 levels deep: 422 at metadata, nothing stored or changed', async () => {
    const tenant = await createTenant();
    expectRefusedAt(await portalRaw(tenant, 'POST', '/rewards', `{"title":"Deep","xp_cost":"10","metadata":${deep}}`), 'metadata', TOO_DEEP);
    expect(await db(tenant.id).select().from(rewards).where(eq(rewards.tenantId, tenant.id))).toEqual([]);
    const reward = expectOk(await portalRaw(tenant, 'POST', '/rewards', '{"title":"Shallow","xp_cost":"10","metadata":{"sku":"S-1"}}'), 201, rewardSchema);
    expectRefusedAt(await portalRaw(tenant, 'PATCH', `/rewards/${reward.id}`, `{"metadata":${deep}}`), 'metadata', TOO_DEEP);
    expectRefusedAt(await portalRaw(tenant, 'PATCH', `/rewards/${reward.id}`, `{"metadata":${nested(MAX_JSON_DEPTH + 1)}}`), 'metadata', TOO_DEEP);
    expectRefusedAt(await portalRaw(tenant, 'PATCH', `/rewards/${reward.id}`, `{"metadata":${ofBytes(MAX_JSON_BYTES + 1)}}`), 'metadata', TOO_LARGE);
    const [stored] = await db(tenant.id).select().from(rewards).where(eq(rewards.id, reward.id));
    expect(stored?.metadata).toEqual({ sku: 'S-1' });
    const atLimit = expectOk(await portalRaw(tenant, 'PATCH', `/rewards/${reward.id}`, `{"metadata":${nested(MAX_JSON_DEPTH)}}`), 200, rewardSchema);
    expect(JSON.stringify(atLimit.metadata)).toBe(nested(MAX_JSON_DEPTH));
  });

  it('onchain asset create and PATCH 30,000 levels deep: 422 at metadata, nothing stored, deployed or changed', async () => {
    const tenant = await createTenant();
    const create = (metadata: string) => portalRaw(tenant, 'POST', '/onchain-assets', `{"type":"erc20","chain_id":31337,"name":"Deep","symbol":"DP","decimals":0,"metadata":${metadata}}`);
    expectRefusedAt(await create(deep), 'metadata', TOO_DEEP);
    expectRefusedAt(await create(ofBytes(MAX_JSON_BYTES + 1)), 'metadata', TOO_LARGE);
    expect(await db(tenant.id).select().from(onchainAssets).where(eq(onchainAssets.tenantId, tenant.id))).toEqual([]);
    const asset = await insertAssetRow(tenant.id, { metadata: { image: 'https://example.com/a.png' } });
    expectRefusedAt(await portalRaw(tenant, 'PATCH', `/onchain-assets/${asset.id}`, `{"metadata":${deep}}`), 'metadata', TOO_DEEP);
    expectRefusedAt(await portalRaw(tenant, 'PATCH', `/onchain-assets/${asset.id}`, `{"metadata":${nested(MAX_JSON_DEPTH + 1)}}`), 'metadata', TOO_DEEP);
    const [stored] = await db(tenant.id).select().from(onchainAssets).where(and(eq(onchainAssets.tenantId, tenant.id), eq(onchainAssets.id, asset.id)));
    expect(stored?.metadata).toEqual({ image: 'https://example.com/a.png' });
  });
});
