import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { createApp } from '../../src/app';
import { encryptSecret } from '../../src/auth/secret-box';
import { signRequest } from '../../src/auth/signature';
import { kvKey } from '../../src/data/api-key-cache';
import { apiKeys } from '../../src/db/schema';
import { generateCredential } from '../../src/domain/api-keys';
import { newId } from '../../src/lib/ids';
import { BASE, type JsonResponse } from '../support/http';
import { sessionsThrough } from '../support/sessions';
import { shardBindings } from '../support/shards';
import { db, registerKeyId, shardOf, type TestApiKey } from '../support/world';

/**
 * The round trips of docs/GATEWAY-AUTH.md, counted: the app runs with D1 and KV bindings that
 * record every call (the real bindings underneath, nothing mocked). A D1 round trip is one `batch`
 * or one statement execution.
 */
type Trip = { kind: 'd1'; database: 'directory' | 'shard'; statements: string[] } | { kind: 'kv'; op: string };

export function recorder() {
  const trips: Trip[] = [];
  const sqlOf = new WeakMap<D1PreparedStatement, { real: D1PreparedStatement; sql: string }>();
  const recording = (database: 'directory' | 'shard', binding: D1Database): D1Database => {
    const statement = (real: D1PreparedStatement, sql: string): D1PreparedStatement => {
      const once = <T>(run: () => Promise<T>) => {
        trips.push({ kind: 'd1', database, statements: [sql] });
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
    const recorded = {
      prepare: (sql: string) => statement(binding.prepare(sql), sql),
      batch: (statements: D1PreparedStatement[]) => {
        trips.push({ kind: 'd1', database, statements: statements.map((s) => sqlOf.get(s)?.sql ?? '?') });
        return binding.batch(statements.map((s) => sqlOf.get(s)?.real ?? s));
      },
    } as unknown as D1Database;
    return Object.assign(recorded, { withSession: sessionsThrough(binding, (session) => recording(database, session)) });
  };
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
  const shards = Object.fromEntries(shardBindings().map(({ name, db: d1 }) => [name, recording('shard', d1)]));
  return { trips, env: { ...env, DB: recording('directory', env.DB), ...shards, KV } };
}

const app = createApp();

/** One gateway request through the whole app; trips are split into the response path and background. */
export async function measure(key: TestApiKey, method: string, path: string, body?: string) {
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

/** The key guard a batch that may write carries: it fails the batch unless the key is active. */
export const isRollbackGuard = (sql: string) => sql.startsWith('INSERT INTO api_key_guard');
/** The key guard a batch that only reads carries: a SELECT whose answer the gateway checks. */
export const isCheckGuard = (sql: string) => /^SELECT EXISTS \(SELECT 1 FROM api_keys\b/.test(sql);
export const isGuard = (sql: string) => isRollbackGuard(sql) || isCheckGuard(sql);
/** A read of a key for the caches: its tenant and shard in the directory, or the key in that shard. */
export const isKeyRead = (sql: string) => sql.startsWith('select') && (sql.includes('from "api_keys"') || sql.includes('from "api_key_directory"'));
export const isLastUsed = (sql: string) => /^update "api_keys" set "last_used_at"/.test(sql);
/** A statement that cannot write (what every statement of a gateway read must be). */
export const isSelect = (sql: string) => /^\s*select\b/i.test(sql);

/** A key only D1 knows (no isolate memory, no KV entry): the first request of a cold location. */
export async function uncachedKey(tenantId: string, options: { inKv?: boolean } = {}): Promise<TestApiKey> {
  const credential = generateCredential();
  const row = await db(tenantId)
    .insert(apiKeys)
    .values({
      id: newId('apk'),
      tenantId,
      keyId: credential.keyId,
      name: 'uncached',
      label: 'uncached',
      secretCiphertext: await encryptSecret(env.API_KEY_ENCRYPTION_KEY, credential.secret),
      secretPrefix: credential.secretPrefix,
      secretSuffix: credential.secretSuffix,
    })
    .returning()
    .get();
  await registerKeyId(row.keyId, tenantId);
  if (options.inKv) {
    const { id, keyId, secretCiphertext, status, expiresAt } = row;
    await env.KV.put(kvKey(keyId), JSON.stringify({ id, keyId, tenantId, secretCiphertext, status, expiresAt, shard: shardOf(tenantId) }));
  }
  return { id: row.id, keyId: row.keyId, secret: credential.secret, tenantId };
}
