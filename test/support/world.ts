import type { Bindings } from '../../src/env';
import { env } from 'cloudflare:test';
import { createDatabase } from '../../src/db/client';
import { accounts, apiKeyDirectory, directoryTenants, memberships, tenants, type Role } from '../../src/db/schema';
import { shardsOf } from '../../src/data/shards';
import type { ShardName } from '../../src/domain/shards';
import { newId } from '../../src/lib/ids';
import { createApiKey } from '../../src/services/api-keys';
import { forTenant, onShard, runContext, type ServiceContext } from '../../src/services/context';
import { call } from './http';
import { signFresh } from './signing';
import { newIdentity, portalToken } from './tokens';

/**
 * The shard every test tenant lives in: the Worker under test pins new tenants to it (PINNED_SHARD
 * in vitest.config.mts), but in test/shards, which places them on both.
 */
export const TEST_SHARD = env.PINNED_SHARD as ShardName;
const [testShard] = shardsOf(env, [TEST_SHARD]);

/** The test tenants' shard database (its binding, and a Drizzle client over it): their customers, ledger, rules... */
export const shardD1 = () => testShardBinding().d1;
export const db = () => createDatabase(shardD1());
/** The directory database: accounts, tenants and their shards, memberships, the relayer's nonces. */
export const directory = () => createDatabase(env.DB);

/** A services context for `tenantId` on the test shard, as a request's (src/services/context.ts); `fields` replace its clock, onchain context, ... */
export function services(tenantId: string, fields: Partial<ServiceContext> = {}): ServiceContext {
  return { ...forTenant(shardRun(), tenantId), ...fields };
}

/** A run on the test shard (a cron job's or a queue consumer's context); `fields` replace its clock, ... */
export function shardRun(fields: Partial<ServiceContext> = {}, runEnv: Bindings = env) {
  return { ...onShard(runContext(runEnv), testShardBinding()), ...fields };
}

function testShardBinding() {
  if (!testShard) throw new Error(`${TEST_SHARD} is not bound`);
  return testShard;
}

export type TestMember = { accountId: string; sub: string; email: string; token: string; role: Role };
export type TestTenant = { id: string; name: string; slug: string; owner: TestMember };

/** A signed-in person with an account row (as after a first sign-in with a verified email, as `portalToken` mints by default). */
export async function createPerson(label = 'person'): Promise<Omit<TestMember, 'role'>> {
  const identity = newIdentity(label);
  const accountId = newId('acc');
  await directory().insert(accounts).values({ id: accountId, sub: identity.sub, email: identity.email, emailVerified: true, username: identity.username });
  const token = await portalToken({ sub: identity.sub, email: identity.email, username: identity.username });
  return { accountId, sub: identity.sub, email: identity.email, token };
}

/** A fresh tenant whose owner is a `super_admin` with a valid portal token. */
export async function createTenant(label = 'tenant'): Promise<TestTenant> {
  const id = newId('ten');
  const slug = `${label}-${id.slice(-10)}`;
  await db().insert(tenants).values({ id, name: `Tenant ${slug}`, slug });
  await directory().insert(directoryTenants).values({ id, name: `Tenant ${slug}`, slug, shard: TEST_SHARD });
  const owner = await addMember(id, 'super_admin');
  return { id, name: `Tenant ${slug}`, slug, owner };
}

/** Adds a new person to the tenant with the given role. */
export async function addMember(tenantId: string, role: Role): Promise<TestMember> {
  const person = await createPerson(role);
  const membership = { id: newId('mem'), tenantId, accountId: person.accountId, email: person.email, role, status: 'active' } as const;
  await Promise.all([directory().insert(memberships).values(membership), db().insert(memberships).values(membership)]);
  return { ...person, role };
}

/** Records a key id written straight into the shard in the directory, as creating a key does (the gateway finds keys there). */
export async function registerKeyId(keyId: string, tenantId: string): Promise<void> {
  await directory().insert(apiKeyDirectory).values({ keyId, tenantId });
}

export type TestApiKey = { id: string; keyId: string; secret: string; tenantId: string };

export async function createTestApiKey(tenantId: string, options: { expiresAt?: string } = {}): Promise<TestApiKey> {
  const { record, secret } = await createApiKey(services(tenantId), { name: 'test key', ...options }, { kv: env.KV, encryptionKey: env.API_KEY_ENCRYPTION_KEY });
  return { id: record.id, keyId: record.key_id, secret, tenantId };
}

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A signed gateway call; `body` is serialized once, signed and sent as that exact string. Writes get
 * a fresh X-Idempotency-Key unless the test passes its own (or `idempotencyKey: null` for none).
 * Each call is signed afresh (signFresh): a repeated write is a new request, not a replay of a
 * signature. `path` is sent as given; the signature covers its canonical form, as the Worker's does.
 */
export async function gatewayCall(
  key: TestApiKey,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; timestamp?: number; idempotencyKey?: string | null } = {},
) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const signed = await signFresh({ keyId: key.keyId, secret: key.secret, method, url: path, body, timestamp: options.timestamp });
  const headers: Record<string, string> = { ...signed, ...options.headers };
  const idempotencyKey = options.idempotencyKey === undefined ? newId('idem') : options.idempotencyKey;
  if (WRITE_METHODS.includes(method.toUpperCase()) && idempotencyKey !== null) headers['X-Idempotency-Key'] ??= idempotencyKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return call(method, path, { headers, rawBody: body });
}

/** A portal call with the member's bearer token. */
export function portalCall(member: { token: string }, method: string, path: string, body?: unknown) {
  return call(method, path, { headers: { authorization: `Bearer ${member.token}` }, body });
}
