import type { Bindings } from '../../src/env';
import { env } from 'cloudflare:test';
import { createDatabase } from '../../src/db/client';
import { accounts, apiKeyDirectory, directoryTenants, memberships, tenants, type Role } from '../../src/db/schema';
import { shardsOf, type Shard } from '../../src/data/shards';
import type { ShardName } from '../../src/domain/shards';
import { newId } from '../../src/lib/ids';
import { createApiKey } from '../../src/services/api-keys';
import { forTenant, onShard, runContext, type ServiceContext } from '../../src/services/context';
import { call } from './http';
import { shardBindings, tenantShard } from './shards';
import { signFresh } from './signing';
import { newIdentity, portalToken } from './tokens';

/**
 * Where test tenants live. The Worker under test runs unpinned (as in production: a tenant made
 * through POST /tenants goes to the shard with the fewest tenants). `createTenant` below places
 * its tenants in turn, starting with the last shard: two tenants of a test are on two shards, so
 * every cross-tenant test crosses shards, and a file's first tenant is not on the shard a message
 * naming none falls back to (src/services/context.ts `onMessageShard`).
 */
const testShards = shardsOf(env, shardBindings().map(({ name }) => name as ShardName));
const placed = new Map<string, ShardName>();
let placements = 0;

function nextShard(): ShardName {
  const shard = testShards[testShards.length - 1 - (placements % testShards.length)];
  placements += 1;
  if (!shard) throw new Error('SHARDS names no shard');
  return shard.name;
}

/** The shard of a tenant this file made (`createTenant`, or `learnTenant` for one made through the API). */
export function shardOf(tenantId: string): ShardName {
  const name = placed.get(tenantId);
  if (name === undefined) throw new Error(`tenant ${tenantId} was not made by createTenant: await learnTenant(id) after making it through the API`);
  return name;
}

/** Reads the shard of a tenant made through the API (placement chose it) from the directory, so `db(tenantId)` finds it. */
export async function learnTenant(tenantId: string): Promise<ShardName> {
  const { name } = await tenantShard(tenantId);
  placed.set(tenantId, name as ShardName);
  return name as ShardName;
}

function bindingOf(name: ShardName): Shard {
  const shard = testShards.find((candidate) => candidate.name === name);
  if (!shard) throw new Error(`${name} is not bound`);
  return shard;
}

/** The tenant's shard database (its binding, and a Drizzle client over it): its customers, ledger, rules... */
export const shardD1 = (tenantId: string) => bindingOf(shardOf(tenantId)).d1;
export const db = (tenantId: string) => createDatabase(shardD1(tenantId));
/** Every shard, in SHARDS's order: for what a test checks across all of them. */
export const everyShard = (): readonly Shard[] => testShards;
/** The directory database: accounts, tenants and their shards, memberships, the relayer's nonces. */
export const directory = () => createDatabase(env.DB);

/** A services context for `tenantId` on its shard, as a request's (src/services/context.ts); `fields` replace its clock, onchain context, ... */
export function services(tenantId: string, fields: Partial<ServiceContext> = {}): ServiceContext {
  return { ...forTenant(shardRun(tenantId), tenantId), ...fields };
}

/**
 * A run on the tenant's shard (a cron job's or a queue consumer's context), with that shard's
 * binding taken from `runEnv` (so a gated or counting env reaches it); `fields` replace its clock, ...
 */
export function shardRun(tenantId: string, fields: Partial<ServiceContext> = {}, runEnv: Bindings = env) {
  const [shard] = shardsOf(runEnv, [shardOf(tenantId)]);
  if (!shard) throw new Error(`${shardOf(tenantId)} is not bound`);
  return { ...onShard(runContext(runEnv), shard), ...fields };
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

/** A fresh tenant whose owner is a `super_admin` with a valid portal token, on the next shard in turn. */
export async function createTenant(label = 'tenant'): Promise<TestTenant> {
  return placedTenant(label, nextShard());
}

async function placedTenant(label: string, shard: ShardName): Promise<TestTenant> {
  const id = newId('ten');
  const slug = `${label}-${id.slice(-10)}`;
  placed.set(id, shard);
  await db(id).insert(tenants).values({ id, name: `Tenant ${slug}`, slug });
  await directory().insert(directoryTenants).values({ id, name: `Tenant ${slug}`, slug, shard });
  const owner = await addMember(id, 'super_admin');
  return { id, name: `Tenant ${slug}`, slug, owner };
}

/**
 * Another tenant on the same shard as `tenantId` (its turn not taken). A test proving that another
 * tenant's rows do not leak into a query needs them beside the tenant's: on another shard the
 * query never sees them, and its tenant filter would go untested.
 */
export async function createTenantBeside(tenantId: string, label = 'tenant'): Promise<TestTenant> {
  return placedTenant(label, shardOf(tenantId));
}

/**
 * Two other tenants to try a cross-tenant rule with: one on another shard, one beside `tenantId` on
 * its shard. Across shards the rule must hold however the request is routed; on the same shard
 * only the query's tenant filter keeps the other tenant's rows out, so a test needs both.
 */
export async function otherTenants(tenantId: string, label = 'other'): Promise<[elsewhere: TestTenant, beside: TestTenant]> {
  const elsewhere = testShards.find((shard) => shard.name !== shardOf(tenantId));
  if (!elsewhere) throw new Error('the suite needs two shards (SHARDS)');
  return [await placedTenant(label, elsewhere.name), await createTenantBeside(tenantId, label)];
}

/** Adds a new person to the tenant with the given role. */
export async function addMember(tenantId: string, role: Role): Promise<TestMember> {
  const person = await createPerson(role);
  const membership = { id: newId('mem'), tenantId, accountId: person.accountId, email: person.email, role, status: 'active' } as const;
  await Promise.all([directory().insert(memberships).values(membership), db(tenantId).insert(memberships).values(membership)]);
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
