import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hmacHex, signingString } from '../../src/auth/signature';
import { generateCredential } from '../../src/domain/api-keys';
import { revokeApiKey } from '../../src/services/api-keys';
import { apiKeys, customers, idempotencyRecords, internalTransactions } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { apiKeySchema } from '../../src/schemas/api-key';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { unixSeconds } from '../../src/lib/time';
import { call, expectError, expectOk, type JsonResponse } from '../support/http';
import { errorLog } from '../support/logs';
import { createTenant, createTestApiKey, db, otherTenants, portalCall, registerKeyId, services, type TestApiKey } from '../support/world';

const TOLERANCE = Number(env.SIGNATURE_TOLERANCE_SECONDS);
const TX_PATH = '/api/v1/gateway/internal-transactions';
const XP_PATH = '/api/v1/gateway/xp';

type Signing = {
  /** The exact string sent as the body (writes). */
  body?: string;
  /** What the client signed, when it differs from what is sent. */
  signedMethod?: string;
  signedUrl?: string;
  signedBody?: string;
  timestamp?: string;
  secret?: string;
  headers?: Record<string, string>;
  omit?: string[];
};

/** A gateway request signed by hand, so each test can get exactly one part of the recipe wrong. */
async function send(key: TestApiKey, method: string, path: string, signing: Signing = {}): Promise<JsonResponse> {
  const timestamp = signing.timestamp ?? String(unixSeconds());
  const message = signingString({
    timestamp,
    method: signing.signedMethod ?? method,
    url: signing.signedUrl ?? path,
    body: signing.signedBody ?? signing.body ?? '',
  });
  const headers: Record<string, string> = {
    'X-Tenant-Key': key.keyId,
    'X-Tenant-Timestamp': timestamp,
    'X-Tenant-Signature': await hmacHex(signing.secret ?? key.secret, message),
  };
  if (signing.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['X-Idempotency-Key'] = newId('idem');
  }
  Object.assign(headers, signing.headers);
  for (const name of signing.omit ?? []) delete headers[name];
  return call(method, path, { headers, rawBody: signing.body });
}

function expectDenied(res: JsonResponse, message: string | RegExp) {
  const body = expectError(res, 401, 'AUTH_INVALID_CREDENTIALS', message);
  expect(body.data).toBeNull();
  expect(body.errors).toEqual([{ path: '', message: body.error.message }]);
  expect(body.message).toBe(body.error.message);
}

async function setup() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  return { tenant, key };
}

async function seedCustomer(tenantId: string) {
  const id = newId('cus');
  await db(tenantId).insert(customers).values({ id, tenantId, externalId: id, status: 'active' });
  return id;
}

const earnBody = (userId: string, amount = '10') => JSON.stringify({ user_id: userId, type: 'xp_earn', amount });

describe('gateway authentication: headers', () => {
  it.each(['X-Tenant-Key', 'X-Tenant-Timestamp', 'X-Tenant-Signature'])('rejects a request without %s', async (header) => {
    const { key } = await setup();
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`, { omit: [header] }), `Missing ${header} header`);
  });

  it('reads header names case-insensitively', async () => {
    const { key } = await setup();
    const timestamp = String(unixSeconds());
    const signature = await hmacHex(key.secret, signingString({ timestamp, method: 'GET', url: `${TX_PATH}/itx_x`, body: '' }));
    for (const [k, t, s] of [
      ['x-tenant-key', 'x-tenant-timestamp', 'x-tenant-signature'],
      ['X-TENANT-KEY', 'X-TENANT-TIMESTAMP', 'X-TENANT-SIGNATURE'],
    ] as const) {
      const res = await call('GET', `${TX_PATH}/itx_x`, { headers: { [k]: key.keyId, [t]: timestamp, [s]: signature } });
      expectError(res, 404, 'NOT_FOUND');
    }
  });

  it('rejects an unknown key id', async () => {
    const { key } = await setup();
    expectDenied(await send({ ...key, keyId: generateCredential().keyId }, 'GET', `${TX_PATH}/itx_x`), 'Unknown API key');
  });

  it('rejects a signature that is not lowercase hex', async () => {
    const { key } = await setup();
    const timestamp = String(unixSeconds());
    const signature = await hmacHex(key.secret, signingString({ timestamp, method: 'GET', url: `${TX_PATH}/itx_x`, body: '' }));
    const res = await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp, headers: { 'X-Tenant-Signature': signature.toUpperCase() } });
    expectDenied(res, 'Signature is not lowercase hex HMAC-SHA256');
  });
});

describe('gateway authentication: timestamp (checked first, without the secret)', () => {
  it.each([
    ['older', -(TOLERANCE + 60)],
    ['newer', TOLERANCE + 60],
  ])('rejects a timestamp %s than the tolerance', async (_case, offset) => {
    const { key } = await setup();
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp: String(unixSeconds() + offset) }), 'Timestamp is not current');
  });

  it.each([
    ['behind', -(TOLERANCE - 60)],
    ['ahead', TOLERANCE - 60],
  ])('accepts a clock %s within the tolerance', async (_case, offset) => {
    const { key } = await setup();
    expectError(await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp: String(unixSeconds() + offset) }), 404, 'NOT_FOUND');
  });

  it('rejects milliseconds instead of seconds', async () => {
    const { key } = await setup();
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp: String(Date.now()) }), 'Timestamp is in milliseconds, not Unix seconds');
  });

  it.each(['soon', '1.7e9', `${unixSeconds()}.5`, `-${unixSeconds()}`, `0x${unixSeconds().toString(16)}`])('rejects the non-numeric timestamp %j', async (timestamp) => {
    const { key } = await setup();
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp }), 'Timestamp is not a whole number of Unix seconds');
  });

  it('rejects a stale timestamp before looking at the key or its secret', async () => {
    const tenant = await createTenant();
    const broken = await db(tenant.id)
      .insert(apiKeys)
      .values({
        id: newId('apk'),
        tenantId: tenant.id,
        keyId: generateCredential().keyId,
        name: 'corrupt',
        label: 'corrupt',
        secretCiphertext: 'not.a-ciphertext',
        secretPrefix: 'sk_',
        secretSuffix: 'xxxx',
      })
      .returning()
      .get();
    await registerKeyId(broken.keyId, tenant.id);
    const key = { id: broken.id, keyId: broken.keyId, secret: 'sk_irrelevant', tenantId: tenant.id };
    const stale = String(unixSeconds() - TOLERANCE - 60);
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp: stale }), 'Timestamp is not current');
    expectDenied(await send({ ...key, keyId: 'key_unknown' }, 'GET', `${TX_PATH}/itx_x`, { timestamp: stale }), 'Timestamp is not current');
    // With a current timestamp the secret is needed, and this one cannot be decrypted: a server fault, logged.
    const logged = errorLog();
    expectError(await send(key, 'GET', `${TX_PATH}/itx_x`), 500, 'INTERNAL', /^Internal error \(request id [^)]+\)$/);
    expect(logged()).toContain('InvalidCharacterError');
  });
});

describe('gateway authentication: signature', () => {
  it('accepts the signature of the compact JSON when the sent body is formatted differently (the server re-serializes)', async () => {
    const { tenant, key } = await setup();
    const userId = await seedCustomer(tenant.id);
    const compact = earnBody(userId);
    const pretty = JSON.stringify(JSON.parse(compact), null, 2);
    const res = await send(key, 'POST', XP_PATH, { body: pretty, signedBody: compact });
    expect(expectOk(res, 201, internalTransactionSchema)).toMatchObject({ user_id: userId, amount: '10' });
  });

  it('rejects a body changed after signing', async () => {
    const { tenant, key } = await setup();
    const userId = await seedCustomer(tenant.id);
    expectDenied(await send(key, 'POST', XP_PATH, { body: earnBody(userId, '20'), signedBody: earnBody(userId, '10') }), 'Signature mismatch');
  });

  it('names the body check when the signature covers no body', async () => {
    const { tenant, key } = await setup();
    const userId = await seedCustomer(tenant.id);
    const res = await send(key, 'POST', XP_PATH, { body: earnBody(userId), signedBody: '' });
    expectDenied(res, 'Signed body differs from the sent body (the signature covers an empty body)');
  });

  it('names the body check when the raw formatted bytes were signed instead of the compact JSON', async () => {
    const { tenant, key } = await setup();
    const userId = await seedCustomer(tenant.id);
    const pretty = JSON.stringify(JSON.parse(earnBody(userId)), null, 2);
    expectDenied(await send(key, 'POST', XP_PATH, { body: pretty }), /^Signed body differs from the sent body \(the server hashes the body re-serialized/);
  });

  it('authenticates before parsing: a signed malformed body is a 400, an unsigned one a 401', async () => {
    const { key } = await setup();
    expectError(await send(key, 'POST', XP_PATH, { body: '{"user_id":' }), 400, 'MALFORMED_REQUEST');
    expectDenied(await send(key, 'POST', XP_PATH, { body: '{"user_id":', signedBody: '{}' }), 'Signature mismatch');
  });

  it('rejects a url signed without the /api/v1 prefix', async () => {
    const { key } = await setup();
    const path = `${TX_PATH}/itx_x`;
    expectDenied(await send(key, 'GET', path, { signedUrl: path.slice('/api/v1'.length) }), 'Signed url differs from the sent url (sign the path from /api/v1 on)');
  });

  it('signs the query string in the order sent', async () => {
    const { key } = await setup();
    const sent = `${TX_PATH}?type=xp_earn&status=completed`;
    expectOk(await send(key, 'GET', sent), 200, pageSchema(internalTransactionSchema));
    const reordered = `${TX_PATH}?status=completed&type=xp_earn`;
    expectDenied(await send(key, 'GET', sent, { signedUrl: reordered }), 'Signed url differs from the sent url (query parameters are signed in the order sent)');
  });

  it('rejects a query string added after signing', async () => {
    const { key } = await setup();
    expectDenied(await send(key, 'GET', `${TX_PATH}?status=failed`, { signedUrl: TX_PATH }), 'Signed url differs from the sent url (the query string is part of the signed url)');
  });

  it('rejects a lowercase verb in the signing string', async () => {
    const { key } = await setup();
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`, { signedMethod: 'get' }), 'Verb in the signing string is not uppercase');
  });

  it('rejects the key id of one key with the secret of another', async () => {
    const { tenant, key } = await setup();
    const other = await createTestApiKey(tenant.id);
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`, { secret: other.secret }), 'Signature mismatch');
  });

  it('fails a repeated identical request the same way', async () => {
    const { key } = await setup();
    const timestamp = String(unixSeconds());
    // Identical down to the request id, which a failure's body names.
    const headers = { 'X-Request-Id': 'repeat-1' };
    const first = await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp, signedMethod: 'get', headers });
    const second = await send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp, signedMethod: 'get', headers });
    expectDenied(first, 'Verb in the signing string is not uppercase');
    expectDenied(second, 'Verb in the signing string is not uppercase');
    expect(second.text).toBe(first.text);
  });
});

describe('gateway authentication: key status and tenant', () => {
  it('fails the very next identical request after revocation through the portal, and every repeat', async () => {
    const { tenant, key } = await setup();
    const timestamp = String(unixSeconds());
    // Identical down to the request id, which a failure's body names.
    const request = () => send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp, headers: { 'X-Request-Id': 'repeat-2' } });
    expectError(await request(), 404, 'NOT_FOUND');
    const revoked = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/api-keys/${key.id}/revoke`);
    expect(expectOk(revoked, 200, apiKeySchema).status).toBe('revoked');
    const next = await request();
    expectDenied(next, 'API key is revoked or expired');
    expect((await request()).text).toBe(next.text);
  });

  it('fails at once when only D1 knows of the revocation (another location), and the same way on retry', async () => {
    const { key } = await setup();
    const timestamp = String(unixSeconds());
    const request = () => send(key, 'GET', `${TX_PATH}/itx_x`, { timestamp, headers: { 'X-Request-Id': 'repeat-3' } });
    expectError(await request(), 404, 'NOT_FOUND');
    await db(key.tenantId).update(apiKeys).set({ status: 'revoked' }).where(eq(apiKeys.id, key.id));
    const next = await request();
    expectDenied(next, 'API key is revoked or expired');
    expect((await request()).text).toBe(next.text);
  });

  it('rejects an expired key', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id, { expiresAt: '2020-01-01T00:00:00.000Z' });
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`), 'API key is revoked or expired');
  });

  it('rejects a key whose expiry passed while caches still hold it as active', async () => {
    const { key } = await setup();
    expectError(await send(key, 'GET', `${TX_PATH}/itx_x`), 404, 'NOT_FOUND');
    await db(key.tenantId).update(apiKeys).set({ expiresAt: '2020-01-01T00:00:00.000Z' }).where(eq(apiKeys.id, key.id));
    expectDenied(await send(key, 'GET', `${TX_PATH}/itx_x`), 'API key is revoked or expired');
  });

  it('rolls back the whole first batch of a write with a revoked key (the guard rides in it)', async () => {
    const { tenant, key } = await setup();
    const userId = await seedCustomer(tenant.id);
    expectOk(await send(key, 'POST', XP_PATH, { body: earnBody(userId) }), 201, internalTransactionSchema);
    await db(tenant.id).update(apiKeys).set({ status: 'revoked' }).where(eq(apiKeys.id, key.id));

    expectDenied(await send(key, 'POST', XP_PATH, { body: earnBody(userId, '25') }), 'API key is revoked or expired');
    const [customer] = await db(tenant.id).select().from(customers).where(eq(customers.id, userId));
    expect(customer?.xpBalance).toBe(10);
    const rows = await db(tenant.id).select().from(internalTransactions).where(and(eq(internalTransactions.tenantId, tenant.id), eq(internalTransactions.userId, userId)));
    expect(rows).toHaveLength(1);
    // Not even the idempotency claim, the first statement after the guard, was kept.
    expect(await db(tenant.id).select().from(idempotencyRecords).where(eq(idempotencyRecords.tenantId, tenant.id))).toHaveLength(1);
  });

  it('answers 404, not 200, when a key of another tenant (on another shard and on the same one) reads this tenant’s transaction', async () => {
    const mine = await createTenant();
    const userId = await seedCustomer(mine.id);
    const txId = newId('itx');
    await db(mine.id).insert(internalTransactions).values({ id: txId, tenantId: mine.id, userId, type: 'xp_earn', amount: 5, status: 'completed' });
    const myKey = await createTestApiKey(mine.id);
    expect(expectOk(await send(myKey, 'GET', `${TX_PATH}/${txId}`), 200, internalTransactionSchema).id).toBe(txId);
    for (const theirs of await otherTenants(mine.id)) {
      const theirKey = await createTestApiKey(theirs.id);
      expectError(await send(theirKey, 'GET', `${TX_PATH}/${txId}`), 404, 'NOT_FOUND');
    }
  });
});

/**
 * Every gateway route, as the OpenAPI document lists them (checked below), with a body it accepts.
 * Authentication runs before anything else, so ids need not exist and writes need no idempotency key.
 */
const gatewayRoutes: { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/customers' },
  { method: 'POST', path: '/customers', body: { external_id: 'x' } },
  { method: 'GET', path: '/customers/{userId}' },
  { method: 'GET', path: '/customers/{userId}/balances' },
  { method: 'GET', path: '/customers/{userId}/points' },
  { method: 'GET', path: '/customers/{userId}/point-lots' },
  { method: 'PUT', path: '/customers/{userId}/attributes', body: { values: { plan: 'pro' } } },
  { method: 'GET', path: '/customers/{userId}/tier/{tierId}/eligibility' },
  { method: 'GET', path: '/tiers' },
  { method: 'GET', path: '/rewards' },
  { method: 'POST', path: '/xp', body: { user_id: 'cus_x', type: 'xp_earn', amount: '1' } },
  { method: 'GET', path: '/internal-transactions' },
  { method: 'GET', path: '/internal-transactions/{internal_transaction_id}' },
  { method: 'POST', path: '/internal-transactions/{internal_transaction_id}/reverse', body: {} },
  { method: 'POST', path: '/events', body: { user_id: 'cus_x', type: 'order.paid' } },
  { method: 'GET', path: '/events' },
  { method: 'GET', path: '/events/{id}' },
  { method: 'POST', path: '/redemptions', body: { user_id: 'cus_x', reward_id: 'rwd_x' } },
  { method: 'GET', path: '/redemptions/{redemption_id}' },
];

const gatewayUrl = (path: string) => `/api/v1/gateway${path.replace(/\{(\w+)\}/g, (_match, name: string) => `${name}_missing`)}`;

describe('gateway authentication: every route', () => {
  it('covers every gateway operation of the OpenAPI document, each documenting 401', async () => {
    const res = await call('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const paths = (res.body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }).paths;
    const documented = Object.entries(paths)
      .filter(([path]) => path.startsWith('/gateway/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path.slice('/gateway'.length)}`, op })));
    expect(documented.map((d) => d.name).sort()).toEqual(gatewayRoutes.map((r) => `${r.method} ${r.path}`).sort());
    for (const { name, op } of documented) expect(op.responses, name).toHaveProperty('401');
  });

  it.each(gatewayRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: 401 AUTH_INVALID_CREDENTIALS for the secret of another key, for missing headers and for a revoked key',
    async (_name, route) => {
      const { tenant, key } = await setup();
      const other = await createTestApiKey(tenant.id);
      const path = gatewayUrl(route.path);
      const body = route.body === undefined ? undefined : JSON.stringify(route.body);
      expectDenied(await send(key, route.method, path, { body, secret: other.secret }), 'Signature mismatch');
      expectDenied(await call(route.method, path, { body: route.body }), 'Missing X-Tenant-Key header');
      await revokeApiKey(services(tenant.id), other.id, env.KV);
      expectDenied(await send(other, route.method, path, { body }), 'API key is revoked or expired');
    },
  );
});
