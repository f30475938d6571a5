import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { encryptSecret } from '../../src/auth/secret-box';
import { signRequest } from '../../src/auth/signature';
import { kvKey } from '../../src/data/api-key-cache';
import { insertApiKey } from '../../src/data/api-keys';
import { apiKeys, customers } from '../../src/db/schema';
import { generateCredential } from '../../src/domain/api-keys';
import { newId } from '../../src/lib/ids';
import { eq } from 'drizzle-orm';
import { apiKeySchema } from '../../src/schemas/api-key';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { BASE, expectError, expectOk, type JsonResponse } from '../support/http';
import { createTenant, createTestApiKey, db, portalCall, type TestApiKey } from '../support/world';

/**
 * The round trips of docs/GATEWAY-AUTH.md, counted: the app runs with D1 and KV bindings that
 * record every call. A D1 round trip is one `batch` or one statement execution.
 */
type Trip = { kind: 'd1'; statements: string[] } | { kind: 'kv'; op: string };

function recorder() {
  const trips: Trip[] = [];
  const sqlOf = new WeakMap<D1PreparedStatement, { real: D1PreparedStatement; sql: string }>();
  const statement = (real: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const once = <T>(run: () => Promise<T>) => {
      trips.push({ kind: 'd1', statements: [sql] });
      return run();
    };
    const wrapped = {
      bind: (...values: unknown[]) => statement(real.bind(...values), sql),
      first: (column?: string) => once(() => (column === undefined ? real.first() : real.first(column))),
      run: () => once(() => real.run()),
      all: () => once(() => real.all()),
      raw: (options?: { columnNames?: boolean }) => once(() => (options?.columnNames ? real.raw({ columnNames: true }) : real.raw())),
    } as unknown as D1PreparedStatement;
    sqlOf.set(wrapped, { real, sql });
    return wrapped;
  };
  const DB = {
    prepare: (sql: string) => statement(env.DB.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) => {
      trips.push({ kind: 'd1', statements: statements.map((s) => sqlOf.get(s)?.sql ?? '?') });
      return env.DB.batch(statements.map((s) => sqlOf.get(s)?.real ?? s));
    },
  } as unknown as D1Database;
  const KV = new Proxy(env.KV, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        trips.push({ kind: 'kv', op: String(property) });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { trips, env: { ...env, DB, KV } };
}

const app = createApp();

/** One gateway request through the whole app; trips are split into the response path and background. */
async function measure(key: TestApiKey, method: string, path: string, body?: string) {
  const { trips, env: countedEnv } = recorder();
  const headers: Record<string, string> = await signRequest({ keyId: key.keyId, secret: key.secret, method, url: path, body });
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'x-idempotency-key': newId('idem') });
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${BASE}${path}`, { method, headers, body }), countedEnv, ctx);
  const onPath = trips.length;
  const text = await response.text();
  const res: JsonResponse = { status: response.status, headers: response.headers, body: JSON.parse(text), text };
  await waitOnExecutionContext(ctx);
  const split = (list: Trip[]) => ({
    d1: list.filter((t): t is Extract<Trip, { kind: 'd1' }> => t.kind === 'd1').map((t) => t.statements),
    kv: list.filter((t): t is Extract<Trip, { kind: 'kv' }> => t.kind === 'kv').map((t) => t.op),
  });
  return { res, status: response.status, path: split(trips.slice(0, onPath)), background: split(trips.slice(onPath)) };
}

const isGuard = (sql: string) => sql.startsWith('INSERT INTO api_key_guard');
const isKeyRead = (sql: string) => sql.startsWith('select') && sql.includes('from "api_keys"');
const isLastUsed = (sql: string) => /^update "api_keys" set "last_used_at"/.test(sql);
const TX = '/api/v1/gateway/internal-transactions/itx_missing';

/** A key only D1 knows (no isolate memory, no KV entry): the first request of a cold location. */
async function uncachedKey(tenantId: string, options: { inKv?: boolean } = {}): Promise<TestApiKey> {
  const credential = generateCredential();
  const row = await insertApiKey(db(), {
    id: newId('apk'),
    tenantId,
    keyId: credential.keyId,
    name: 'uncached',
    label: 'uncached',
    secretCiphertext: await encryptSecret(env.API_KEY_ENCRYPTION_KEY, credential.secret),
    secretPrefix: credential.secretPrefix,
    secretSuffix: credential.secretSuffix,
  });
  if (options.inKv) {
    const { id, keyId, secretCiphertext, status, expiresAt } = row;
    await env.KV.put(kvKey(keyId), JSON.stringify({ id, keyId, tenantId, secretCiphertext, status, expiresAt }));
  }
  return { id: row.id, keyId: row.keyId, secret: credential.secret, tenantId };
}

describe('gateway round trips', () => {
  it('cold: 1 KV read and 2 D1 round trips (key lookup, then the handler unguarded); cache fill and last_used in the background', async () => {
    const tenant = await createTenant();
    const key = await uncachedKey(tenant.id);
    const cold = await measure(key, 'GET', TX);
    expectError(cold.res, 404, 'NOT_FOUND', 'Internal transaction not found');
    expect(cold.path.kv.filter((op) => op === 'get')).toHaveLength(1);
    const pathD1 = cold.path.d1.filter((trip) => !trip.some(isLastUsed));
    expect(pathD1).toHaveLength(2);
    expect(pathD1.flat().some(isGuard)).toBe(false);
    expect([...cold.path.kv, ...cold.background.kv].filter((op) => op === 'put')).toHaveLength(1);
    expect([...cold.path.d1, ...cold.background.d1].filter((trip) => trip.some(isLastUsed))).toHaveLength(1);
  });

  it('warm memory: no KV, 1 D1 round trip whose first statement is the key guard', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await measure(key, 'GET', TX); // first use writes last_used_at (then throttled)
    const warm = await measure(key, 'GET', TX);
    expectError(warm.res, 404, 'NOT_FOUND', 'Internal transaction not found');
    expect(warm.path.kv).toEqual([]);
    expect(warm.path.d1).toHaveLength(1);
    expect(isGuard(warm.path.d1[0]?.[0] ?? '')).toBe(true);
    expect(warm.path.d1[0]?.length).toBeGreaterThan(1);
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
    expect(isGuard(pathD1[0]?.[0] ?? '')).toBe(true);
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
    await db().update(apiKeys).set({ status: 'revoked' }).where(eq(apiKeys.id, key.id));
    const denied = await measure(key, 'GET', TX);
    expectError(denied.res, 401, 'AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired');
    // The refresh starts (waitUntil) before the response is done; it is the only read of api_keys.
    const all = [...denied.path.d1, ...denied.background.d1];
    const [request, ...others] = all.filter((trip) => !trip.some(isKeyRead));
    expect(others).toEqual([]);
    expect(isGuard(request?.[0] ?? '')).toBe(true);
    expect(all.filter((trip) => trip.some(isKeyRead))).toHaveLength(1);
    expect([...denied.path.kv, ...denied.background.kv]).toEqual(['put']);
    const after = await measure(key, 'GET', TX);
    expectError(after.res, 401, 'AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired');
    expect(after.path.d1).toEqual([]);
  });

  it('write: the guard rides in the first D1 round trip (with the signature use and the idempotency claim), never in a round trip of its own', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = newId('cus');
    await db().insert(customers).values({ id: userId, tenantId: tenant.id, externalId: userId, status: 'active' });
    const body = JSON.stringify({ user_id: userId, type: 'xp_earn', amount: '5' });
    await measure(key, 'GET', TX);
    const write = await measure(key, 'POST', '/api/v1/gateway/xp', body);
    expectOk(write.res, 201, internalTransactionSchema);
    expect(write.path.kv).toEqual([]);
    const [first, ...rest] = write.path.d1;
    expect(isGuard(first?.[0] ?? '')).toBe(true);
    expect(first?.length).toBeGreaterThan(1);
    expect(rest.flat().some(isGuard)).toBe(false);
    expect(first?.some((sql) => sql.startsWith('insert into "gateway_signature_uses"'))).toBe(true);
    expect(first?.some((sql) => sql.startsWith('insert into "idempotency_records"'))).toBe(true);
    expect(write.path.d1).toHaveLength(3);
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
