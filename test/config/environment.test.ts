/**
 * The environment is validated once per isolate by one schema (src/config.ts): a missing or
 * malformed variable answers 503 SERVICE_MISCONFIGURED naming it, never its value, on every route
 * but GET /info. The Worker is handed broken envs directly, as if deployed with them.
 */
import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configOf } from '../../src/config';
import type { Bindings } from '../../src/env';
import { BASE, callWorker, expectError, expectOk, type JsonResponse } from '../support/http';
import { errorLog } from '../support/logs';
import { z } from 'zod';
import { inspected } from '../support/log-capture';

const SECRET_LOOKING = 'c2VjcmV0LXZhbHVlLXRoYXQtbXVzdC1uZXZlci1sZWFr';

function call(overrides: Partial<Record<keyof Bindings, unknown>>, method: string, path: string): Promise<JsonResponse> {
  return callWorker(new Request(`${BASE}${path}`, { method }), { ...env, ...overrides } as Bindings);
}

/** One route per surface, each before its own authentication. */
const routes = [
  ['GET', '/api/v1/system/masterdata'],
  ['GET', '/api/v1/user/me'],
  ['POST', '/api/v1/tenants'],
  ['GET', '/api/v1/tenant/ten_x/customers'],
  ['GET', '/api/v1/gateway/tiers'],
  ['POST', '/api/v1/gateway/xp'],
] as const;

afterEach(() => vi.restoreAllMocks());

describe('a missing or malformed variable', () => {
  it.each([
    ['API_KEY_ENCRYPTION_KEY', undefined, /^API_KEY_ENCRYPTION_KEY is not set/],
    ['API_KEY_ENCRYPTION_KEY', btoa('sixteen bytes!!!'), /^API_KEY_ENCRYPTION_KEY is malformed/],
    ['WALLET_MNEMONIC', undefined, /^WALLET_MNEMONIC is not set/],
    ['WALLET_MNEMONIC', `${SECRET_LOOKING} `.repeat(12), /^WALLET_MNEMONIC is malformed/],
    ['AUTH_ISSUER', '   ', /^AUTH_ISSUER is not set/],
    ['AUTH_AUDIENCE', undefined, /^AUTH_AUDIENCE is not set/],
    ['AUTH_JWKS', SECRET_LOOKING, /^AUTH_JWKS is not a JWKS/],
    ['AUTH_JWKS_URL', `ftp://${SECRET_LOOKING}`, /^AUTH_JWKS_URL is not an http\(s\) URL/],
    ['SIGNATURE_TOLERANCE_SECONDS', 'five minutes', /^SIGNATURE_TOLERANCE_SECONDS must be a whole number/],
    ['TENANT_SIGNUP', 'Open ', /^TENANT_SIGNUP must be "open" or "closed"/],
    ['CHAINS', `{"31337": "${SECRET_LOOKING}`, /^CHAINS is not valid JSON/],
    ['RELAYER_PRIVATE_KEY', SECRET_LOOKING, /^RELAYER_PRIVATE_KEY is not a 32-byte hex private key/],
    ['CONFIRMATIONS', '0', /^CONFIRMATIONS must be a whole number from 1/],
    ['SETTLEMENT_STUCK_SECONDS', '-1', /^SETTLEMENT_STUCK_SECONDS must be a whole number/],
    ['DB', undefined, /^DB is not bound/],
    ['SHARDS', undefined, /^SHARDS is not set: list the tenant shards' D1 bindings/],
    ['SHARDS', `SHARD_0,${SECRET_LOOKING}`, /^SHARDS entry 2 is not a shard binding name: a shard binding is SHARD_<number>, 0 to 127$/],
    ['SHARDS', 'SHARD_0,SHARD_9', /^SHARDS lists SHARD_9, which is not bound \(D1 binding in wrangler.toml\)$/],
    ['SHARDS', 'SHARD_0,SHARD_0', /^SHARDS names a binding twice$/],
    ['SHARD_1', undefined, /^SHARDS lists SHARD_1, which is not bound/],
    ['PINNED_SHARD', 'SHARD_7', /^PINNED_SHARD names SHARD_7, which SHARDS does not list$/],
    ['PINNED_SHARD', 'shard zero', /^PINNED_SHARD is not a shard binding name \(SHARD_<number>\)$/],
    ['KV', undefined, /^KV is not bound/],
    ['SETTLEMENT_QUEUE', undefined, /^SETTLEMENT_QUEUE is not bound/],
    ['GATEWAY_RATE_LIMITER', undefined, /^GATEWAY_RATE_LIMITER is not bound \(rate limiting/],
    ['PORTAL_RATE_LIMITER', undefined, /^PORTAL_RATE_LIMITER is not bound \(rate limiting/],
    ['GATEWAY_RATE_LIMIT', undefined, /^GATEWAY_RATE_LIMIT is not set: it states the limit of the GATEWAY_RATE_LIMITER binding/],
    ['GATEWAY_RATE_LIMIT', `${SECRET_LOOKING}/60`, /^GATEWAY_RATE_LIMIT must be limit\/period/],
    ['PORTAL_RATE_LIMIT', '300/30', /^PORTAL_RATE_LIMIT must be limit\/period .* \(period 10 or 60\)$/],
    ['TENANT_RATE_LIMITER', undefined, /^TENANT_RATE_LIMITER is not bound \(rate limiting/],
    ['TENANT_RATE_LIMIT', undefined, /^TENANT_RATE_LIMIT is not set: it states the limit of the TENANT_RATE_LIMITER binding/],
    ['TENANT_RATE_LIMIT', `${SECRET_LOOKING}/60`, /^TENANT_RATE_LIMIT must be limit\/period as in the TENANT_RATE_LIMITER binding/],
  ] as const)('%s = %j: 503 SERVICE_MISCONFIGURED on every surface, naming it, never its value', async (name, value, message) => {
    for (const [method, path] of routes) {
      const res = await call({ [name]: value }, method, path);
      const body = expectError(res, 503, 'SERVICE_MISCONFIGURED', message);
      expect(body.errors).toEqual([{ path: '', message: body.message }]);
      expect(res.text).not.toContain(SECRET_LOOKING);
    }
  });

  it('names every variable at fault at once', async () => {
    const res = await call({ API_KEY_ENCRYPTION_KEY: undefined, WALLET_MNEMONIC: undefined }, 'GET', '/api/v1/user/me');
    const body = expectError(res, 503, 'SERVICE_MISCONFIGURED', /API_KEY_ENCRYPTION_KEY is not set; WALLET_MNEMONIC is not set/);
    expect(body.errors.map((e) => e.message)).toEqual(['API_KEY_ENCRYPTION_KEY is not set', 'WALLET_MNEMONIC is not set']);
  });

  it('AUTH_JWKS_URL or AUTH_JWKS: one of them must be set', async () => {
    const res = await call({ AUTH_JWKS: undefined, AUTH_JWKS_URL: undefined }, 'GET', '/api/v1/user/me');
    expectError(res, 503, 'SERVICE_MISCONFIGURED', /^AUTH_JWKS_URL or AUTH_JWKS is not set/);
  });

  it('GET /info still answers', async () => {
    const res = await call({ API_KEY_ENCRYPTION_KEY: undefined, DB: undefined }, 'GET', '/api/v1/info');
    expectOk(res, 200, z.strictObject({ name: z.string(), version: z.string(), environment: z.string() }));
  });

  it('is logged once per isolate and configuration, by name only', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(inspected(() => undefined));
    const broken = { WALLET_MNEMONIC: `${SECRET_LOOKING} once`, ENVIRONMENT: 'log-once-test' };
    for (const [method, path] of routes) await call(broken, method, path);
    const lines = errors.mock.calls.map((args) => String(args[0])).filter((line) => line.includes('service misconfigured'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('WALLET_MNEMONIC is malformed');
    expect(lines[0]).not.toContain(SECRET_LOOKING);
  });

  it("each 503 answer is logged with its request id, the X-Request-Id the partner quotes", async () => {
    const logged = errorLog();
    for (const [method, path] of routes) {
      const res = await call({ API_KEY_ENCRYPTION_KEY: undefined }, method, path);
      const requestId = expectError(res, 503, 'SERVICE_MISCONFIGURED').error.request_id;
      expect(res.headers.get('x-request-id')).toBe(requestId);
      expect(logged()).toContain(`"request_id":"${requestId}"`);
    }
  });
});

describe('a valid environment', () => {
  it('the test environment passes the schema, with defaults for unset optional vars', () => {
    const result = configOf({ ...env, SIGNATURE_TOLERANCE_SECONDS: undefined, TENANT_SIGNUP: '', CONFIRMATIONS: undefined });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.SIGNATURE_TOLERANCE_SECONDS).toBe(300);
    expect(result.config.TENANT_SIGNUP).toBe('open');
    expect(result.config.CONFIRMATIONS).toBe(1);
    expect(result.config.SETTLEMENT_STUCK_SECONDS).toBe(120);
  });

  it('an unset optional onchain var is not an error (onchain routes name it when they need it)', async () => {
    const res = await call({ CHAINS: undefined, RELAYER_PRIVATE_KEY: '' }, 'GET', '/api/v1/system/masterdata');
    expect(res.status).toBe(200);
  });
});
