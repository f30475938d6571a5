/**
 * Per API key on the gateway, per account on the portal and the platform routes of a signed-in
 * person (src/middleware/rate-limit.ts). The Worker is handed limiters of 3 requests per 60 s
 * (vitest.config.mts) and the vars that state them, as if deployed with them.
 *
 * Miniflare's limiter counts in fixed windows aligned to the clock (floor(now / period)). The clock
 * is pinned (Date only) to the middle of a window, so every request of a test falls in the same
 * window however slowly it runs, and moving the clock one period on opens the next one.
 */
import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signRequest } from '../../src/auth/signature';
import type { Bindings } from '../../src/env';
import { newId } from '../../src/lib/ids';
import { unixSeconds } from '../../src/lib/time';
import { BASE, callWorker, expectError, type JsonResponse } from '../support/http';
import { gatewayRequest, portalRequest } from '../support/race';
import { addMember, createTenant, createTestApiKey, type TestApiKey } from '../support/world';

const LIMIT = 3;
const PERIOD_MS = 60_000;
const tight: Bindings = {
  ...env,
  GATEWAY_RATE_LIMITER: env.TEST_TIGHT_GATEWAY_LIMITER,
  GATEWAY_RATE_LIMIT: `${LIMIT}/60`,
  PORTAL_RATE_LIMITER: env.TEST_TIGHT_PORTAL_LIMITER,
  PORTAL_RATE_LIMIT: `${LIMIT}/60`,
};

const send = (request: Request | Promise<Request>) => Promise.resolve(request).then((r) => callWorker(r, tight));
const tiers = (key: TestApiKey) => send(gatewayRequest(key, 'GET', '/api/v1/gateway/tiers'));

function expectCounted(res: JsonResponse, policy: 'per-key' | 'per-account') {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('ratelimit-policy')).toBe(`"${policy}";q=${LIMIT};w=60`);
  // The binding does not say what is left: no RateLimit field (its r is required) on a success.
  expect(res.headers.get('ratelimit')).toBeNull();
}

function expectLimited(res: JsonResponse, policy: 'per-key' | 'per-account', per: string) {
  expectError(res, 429, 'RATE_LIMITED', `Rate limit exceeded: at most ${LIMIT} requests per 60 s per ${per}; retry after 60 s`);
  expect(res.headers.get('retry-after')).toBe('60');
  expect(res.headers.get('ratelimit')).toBe(`"${policy}";r=0;t=60`);
  expect(res.headers.get('ratelimit-policy')).toBe(`"${policy}";q=${LIMIT};w=60`);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Math.floor(Date.now() / PERIOD_MS) * PERIOD_MS + PERIOD_MS / 2);
});
afterEach(() => vi.useRealTimers());

const nextWindow = () => vi.setSystemTime(Date.now() + PERIOD_MS);

describe('gateway: per API key', () => {
  it('a key past its limit gets 429 with Retry-After and RateLimit headers; another key of the tenant and another tenant do not', async () => {
    const tenant = await createTenant('rl-gw');
    const other = await createTenant('rl-gw-other');
    const [key, sameTenantKey, otherTenantKey] = await Promise.all([createTestApiKey(tenant.id), createTestApiKey(tenant.id), createTestApiKey(other.id)]);

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(key), 'per-key');
    expectLimited(await tiers(key), 'per-key', 'API key');
    expectLimited(await tiers(key), 'per-key', 'API key');

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(sameTenantKey), 'per-key');
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(otherTenantKey), 'per-key');

    nextWindow();
    expectCounted(await tiers(key), 'per-key');
  });

  it('requests that fail authentication spend nothing: nobody can exhaust a key they cannot sign for', async () => {
    const tenant = await createTenant('rl-gw-auth');
    const key = await createTestApiKey(tenant.id);
    const forged = { ...key, secret: `${key.secret.slice(0, -1)}${key.secret.endsWith('a') ? 'b' : 'a'}` };
    for (let i = 0; i < LIMIT + 2; i += 1) expectError(await tiers(forged), 401, 'AUTH_INVALID_CREDENTIALS');
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(key), 'per-key');
  });

  it('a counted request that fails further on still carries the policy, and spent its share', async () => {
    const tenant = await createTenant('rl-gw-404');
    const key = await createTestApiKey(tenant.id);
    const missing = await send(gatewayRequest(key, 'GET', `/api/v1/gateway/customers/${newId('cus')}`));
    expectError(missing, 404, 'NOT_FOUND');
    expect(missing.headers.get('ratelimit-policy')).toBe(`"per-key";q=${LIMIT};w=60`);
    for (let i = 1; i < LIMIT; i += 1) expectCounted(await tiers(key), 'per-key');
    expectLimited(await tiers(key), 'per-key', 'API key');
  });

  it('a 429 comes before the idempotency claim: the same signed write succeeds once the window has passed', async () => {
    const tenant = await createTenant('rl-gw-write');
    const key = await createTestApiKey(tenant.id);
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(key), 'per-key');

    const path = '/api/v1/gateway/customers';
    const body = JSON.stringify({ external_id: newId('ext') });
    const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'POST', url: path, body, timestamp: unixSeconds() });
    const headers = { ...signed, 'content-type': 'application/json', 'x-idempotency-key': newId('idem') };
    const write = () => send(new Request(`${BASE}${path}`, { method: 'POST', headers, body }));

    expectLimited(await write(), 'per-key', 'API key');
    nextWindow();
    const retried = await write();
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('ratelimit-policy')).toBe(`"per-key";q=${LIMIT};w=60`);
  });
});

describe('portal: per account', () => {
  const customers = (member: { token: string }, tenantId: string) => send(portalRequest(member, 'GET', `/api/v1/tenant/${tenantId}/customers`));

  it('an account past its limit gets 429; another account of the tenant and another tenant do not', async () => {
    const tenant = await createTenant('rl-portal');
    const other = await createTenant('rl-portal-other');
    const colleague = await addMember(tenant.id, 'admin');

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(tenant.owner, tenant.id), 'per-account');
    expectLimited(await customers(tenant.owner, tenant.id), 'per-account', 'account');
    // The same account's one budget covers its platform routes too.
    expectLimited(await send(portalRequest(tenant.owner, 'GET', '/api/v1/user/me')), 'per-account', 'account');

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(colleague, tenant.id), 'per-account');
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(other.owner, other.id), 'per-account');

    nextWindow();
    expectCounted(await customers(tenant.owner, tenant.id), 'per-account');
  });

  it("a non-member's 404 spends nothing: the account is counted once it is known a member", async () => {
    const tenant = await createTenant('rl-portal-member');
    const outsider = await createTenant('rl-portal-outsider');
    for (let i = 0; i < LIMIT + 2; i += 1) expectError(await customers(outsider.owner, tenant.id), 404, 'NOT_FOUND');
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(outsider.owner, outsider.id), 'per-account');
  });

  it('POST /tenants and GET /user/me count once per request', async () => {
    const tenant = await createTenant('rl-platform');
    const create = () => send(portalRequest(tenant.owner, 'POST', '/api/v1/tenants', { name: 'Rate limited', slug: `rl-${newId('x').slice(-10)}` }));
    const first = await create();
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('ratelimit-policy')).toBe(`"per-account";q=${LIMIT};w=60`);
    expectCounted(await send(portalRequest(tenant.owner, 'GET', '/api/v1/user/me')), 'per-account');
    expect((await create()).status).toBe(201);
    expectLimited(await create(), 'per-account', 'account');
  });
});
