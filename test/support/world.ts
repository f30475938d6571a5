import { env } from 'cloudflare:test';
import { createDatabase } from '../../src/db/client';
import { accounts, memberships, tenants, type Role } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { createApiKey } from '../../src/services/api-keys';
import { forTenant, runContext, type RunContext, type ServiceContext } from '../../src/services/context';
import { call } from './http';
import { signFresh } from './signing';
import { newIdentity, portalToken } from './tokens';

export const db = () => createDatabase(env.DB);

/** A services context for `tenantId` on the test database, as a request's (src/services/context.ts); `fields` replace its clock, onchain context, ... */
export function services(tenantId: string, fields: Partial<RunContext> = {}): ServiceContext {
  return { ...forTenant(runContext(env, { db: db() }), tenantId), ...fields };
}

export type TestMember = { accountId: string; sub: string; email: string; token: string; role: Role };
export type TestTenant = { id: string; name: string; slug: string; owner: TestMember };

/** A signed-in person with an account row (as after a first sign-in with a verified email, as `portalToken` mints by default). */
export async function createPerson(label = 'person'): Promise<Omit<TestMember, 'role'>> {
  const identity = newIdentity(label);
  const accountId = newId('acc');
  await db().insert(accounts).values({ id: accountId, sub: identity.sub, email: identity.email, emailVerified: true, username: identity.username });
  const token = await portalToken({ sub: identity.sub, email: identity.email, username: identity.username });
  return { accountId, sub: identity.sub, email: identity.email, token };
}

/** A fresh tenant whose owner is a `super_admin` with a valid portal token. */
export async function createTenant(label = 'tenant'): Promise<TestTenant> {
  const id = newId('ten');
  const slug = `${label}-${id.slice(-10)}`;
  await db().insert(tenants).values({ id, name: `Tenant ${slug}`, slug });
  const owner = await addMember(id, 'super_admin');
  return { id, name: `Tenant ${slug}`, slug, owner };
}

/** Adds a new person to the tenant with the given role. */
export async function addMember(tenantId: string, role: Role): Promise<TestMember> {
  const person = await createPerson(role);
  await db().insert(memberships).values({ id: newId('mem'), tenantId, accountId: person.accountId, email: person.email, role, status: 'active' });
  return { ...person, role };
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
