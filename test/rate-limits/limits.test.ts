/**
 * Per API key and per tenant on the gateway, per account on the portal and the platform routes of a
 * signed-in person (src/middleware/rate-limit.ts). The Worker is handed limiters of 3 requests per
 * 60 s (vitest.config.mts) and the vars that state them, as if deployed with them; the tenant's is
 * wrangler.toml's own (out of reach) except in the per-tenant tests, which hand it one of 5.
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
const TENANT_LIMIT = 5;
const PERIOD_MS = 60_000;
const tight: Bindings = {
  ...env,
  GATEWAY_RATE_LIMITER: env.TEST_TIGHT_GATEWAY_LIMITER,
  GATEWAY_RATE_LIMIT: `${LIMIT}/60`,
  PORTAL_RATE_LIMITER: env.TEST_TIGHT_PORTAL_LIMITER,
  PORTAL_RATE_LIMIT: `${LIMIT}/60`,
};
const tightTenant: Bindings = { ...tight, TENANT_RATE_LIMITER: env.TEST_TIGHT_TENANT_LIMITER, TENANT_RATE_LIMIT: `${TENANT_LIMIT}/60` };

/** A budget as the responses state it: its policy, its limit per 60 s and, for the 429's message, who spends it. */
type Budget = { policy: string; limit: number; per: string };
const PER_KEY: Budget = { policy: 'per-key', limit: LIMIT, per: 'API key' };
const PER_ACCOUNT: Budget = { policy: 'per-account', limit: LIMIT, per: 'account' };
const PER_TENANT: Budget = { policy: 'per-tenant', limit: TENANT_LIMIT, per: 'tenant (all its API keys)' };
/** wrangler.toml's own tenant limiter (1,000,000 per 60 s), which `tight` keeps. */
const LOCAL_PER_TENANT: Budget = { ...PER_TENANT, limit: Number(env.TENANT_RATE_LIMIT?.split('/')[0]) };
const GATEWAY = [PER_KEY, LOCAL_PER_TENANT];
const TIGHT_GATEWAY = [PER_KEY, PER_TENANT];
const PORTAL = [PER_ACCOUNT];

const stated = (budgets: Budget[]) => budgets.map(({ policy, limit }) => `"${policy}";q=${limit};w=60`).join(', ');

const send = (request: Request | Promise<Request>, bindings = tight) => Promise.resolve(request).then((r) => callWorker(r, bindings));
const tiers = (key: TestApiKey, bindings = tight) => send(gatewayRequest(key, 'GET', '/api/v1/gateway/tiers'), bindings);

function expectCounted(res: JsonResponse, budgets: Budget[]) {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('ratelimit-policy')).toBe(stated(budgets));
  // The binding does not say what is left: no RateLimit field (its r is required) on a success.
  expect(res.headers.get('ratelimit')).toBeNull();
}

function expectLimited(res: JsonResponse, budgets: Budget[], exhausted: Budget) {
  const { policy, limit, per } = exhausted;
  expectError(res, 429, 'RATE_LIMITED', `Rate limit exceeded: at most ${limit} requests per 60 s per ${per}; retry after 60 s`);
  expect(res.headers.get('retry-after')).toBe('60');
  expect(res.headers.get('ratelimit')).toBe(`"${policy}";r=0;t=60`);
  expect(res.headers.get('ratelimit-policy')).toBe(stated(budgets));
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

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(key), GATEWAY);
    expectLimited(await tiers(key), GATEWAY, PER_KEY);
    expectLimited(await tiers(key), GATEWAY, PER_KEY);

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(sameTenantKey), GATEWAY);
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(otherTenantKey), GATEWAY);

    nextWindow();
    expectCounted(await tiers(key), GATEWAY);
  });

  it('requests that fail authentication spend nothing: nobody can exhaust a key they cannot sign for', async () => {
    const tenant = await createTenant('rl-gw-auth');
    const key = await createTestApiKey(tenant.id);
    const forged = { ...key, secret: `${key.secret.slice(0, -1)}${key.secret.endsWith('a') ? 'b' : 'a'}` };
    for (let i = 0; i < LIMIT + 2; i += 1) expectError(await tiers(forged), 401, 'AUTH_INVALID_CREDENTIALS');
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(key), GATEWAY);
  });

  it('a counted request that fails further on still carries the policy, and spent its share', async () => {
    const tenant = await createTenant('rl-gw-404');
    const key = await createTestApiKey(tenant.id);
    const missing = await send(gatewayRequest(key, 'GET', `/api/v1/gateway/customers/${newId('cus')}`));
    expectError(missing, 404, 'NOT_FOUND');
    expect(missing.headers.get('ratelimit-policy')).toBe(stated(GATEWAY));
    for (let i = 1; i < LIMIT; i += 1) expectCounted(await tiers(key), GATEWAY);
    expectLimited(await tiers(key), GATEWAY, PER_KEY);
  });

  it('a 429 comes before the idempotency claim: the same signed write succeeds once the window has passed', async () => {
    const tenant = await createTenant('rl-gw-write');
    const key = await createTestApiKey(tenant.id);
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiers(key), GATEWAY);

    const path = '/api/v1/gateway/customers';
    const body = JSON.stringify({ external_id: newId('ext') });
    const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'POST', url: path, body, timestamp: unixSeconds() });
    const headers = { ...signed, 'content-type': 'application/json', 'x-idempotency-key': newId('idem') };
    const write = () => send(new Request(`${BASE}${path}`, { method: 'POST', headers, body }));

    expectLimited(await write(), GATEWAY, PER_KEY);
    nextWindow();
    const retried = await write();
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('ratelimit-policy')).toBe(stated(GATEWAY));
  });
});

describe('gateway: per tenant, all its API keys together', () => {
  const tiersOf = (key: TestApiKey) => tiers(key, tightTenant);

  it('fresh keys of one tenant together get the tenant budget, no more (429 naming it); another tenant is not touched', async () => {
    const tenant = await createTenant('rl-tenant');
    const other = await createTenant('rl-tenant-other');
    // The attack: each fresh key has a whole per-key budget, four of them would have 12.
    const keys = await Promise.all(Array.from({ length: 4 }, () => createTestApiKey(tenant.id)));
    const otherKey = await createTestApiKey(other.id);

    const served: number[] = [];
    for (const key of keys) {
      let count = 0;
      for (let i = 0; i < LIMIT; i += 1) {
        const res = await tiersOf(key);
        if (res.status === 200) {
          expectCounted(res, TIGHT_GATEWAY);
          count += 1;
        } else expectLimited(res, TIGHT_GATEWAY, PER_TENANT);
      }
      served.push(count);
    }
    expect(served).toEqual([3, 2, 0, 0]);

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiersOf(otherKey), TIGHT_GATEWAY);

    nextWindow();
    expectCounted(await tiersOf(keys[3]!), TIGHT_GATEWAY);
  });

  it("a request its key's budget refuses spends nothing of the tenant's: the tenant's other keys get the rest", async () => {
    const tenant = await createTenant('rl-tenant-order');
    const [runaway, colleague] = await Promise.all([createTestApiKey(tenant.id), createTestApiKey(tenant.id)]);

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await tiersOf(runaway), TIGHT_GATEWAY);
    for (let i = 0; i < 4; i += 1) expectLimited(await tiersOf(runaway), TIGHT_GATEWAY, PER_KEY);

    for (let i = LIMIT; i < TENANT_LIMIT; i += 1) expectCounted(await tiersOf(colleague), TIGHT_GATEWAY);
    expectLimited(await tiersOf(colleague), TIGHT_GATEWAY, PER_TENANT);
    // The key's budget is counted first: the request the tenant's refused had spent the key's share.
    expectLimited(await tiersOf(colleague), TIGHT_GATEWAY, PER_KEY);
  });
});

describe('portal: per account', () => {
  const customers = (member: { token: string }, tenantId: string) => send(portalRequest(member, 'GET', `/api/v1/tenant/${tenantId}/customers`));

  it('an account past its limit gets 429; another account of the tenant and another tenant do not', async () => {
    const tenant = await createTenant('rl-portal');
    const other = await createTenant('rl-portal-other');
    const colleague = await addMember(tenant.id, 'admin');

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(tenant.owner, tenant.id), PORTAL);
    expectLimited(await customers(tenant.owner, tenant.id), PORTAL, PER_ACCOUNT);
    // The same account's one budget covers its platform routes too.
    expectLimited(await send(portalRequest(tenant.owner, 'GET', '/api/v1/user/me')), PORTAL, PER_ACCOUNT);

    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(colleague, tenant.id), PORTAL);
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(other.owner, other.id), PORTAL);

    nextWindow();
    expectCounted(await customers(tenant.owner, tenant.id), PORTAL);
  });

  it("a non-member's 404 spends nothing: the account is counted once it is known a member", async () => {
    const tenant = await createTenant('rl-portal-member');
    const outsider = await createTenant('rl-portal-outsider');
    for (let i = 0; i < LIMIT + 2; i += 1) expectError(await customers(outsider.owner, tenant.id), 404, 'NOT_FOUND');
    for (let i = 0; i < LIMIT; i += 1) expectCounted(await customers(outsider.owner, outsider.id), PORTAL);
  });

  it('POST /tenants and GET /user/me count once per request', async () => {
    const tenant = await createTenant('rl-platform');
    const create = () => send(portalRequest(tenant.owner, 'POST', '/api/v1/tenants', { name: 'Rate limited', slug: `rl-${newId('x').slice(-10)}` }));
    const first = await create();
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('ratelimit-policy')).toBe(stated(PORTAL));
    expectCounted(await send(portalRequest(tenant.owner, 'GET', '/api/v1/user/me')), PORTAL);
    expect((await create()).status).toBe(201);
    expectLimited(await create(), PORTAL, PER_ACCOUNT);
  });
});
