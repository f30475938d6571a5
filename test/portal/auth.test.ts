import { env } from 'cloudflare:test';
import { sign } from 'hono/utils/jwt/jwt';
import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { currentAccountSchema } from '../../src/schemas/account';
import { memberSchema } from '../../src/schemas/member';
import { call, expectError, expectOk } from '../support/http';
import { testKeys } from '../support/keys';
import { newIdentity, portalToken } from '../support/tokens';
import { addMember, createPerson, createTenant, portalCall } from '../support/world';

const ME = '/api/v1/user/me';
const nowSeconds = () => Math.floor(Date.now() / 1000);

const base64url = (text: string | Uint8Array) =>
  btoa(typeof text === 'string' ? text : String.fromCharCode(...text))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/** Valid claims for a fresh identity. */
function claims(overrides: Record<string, unknown> = {}) {
  const identity = newIdentity('auth');
  const now = nowSeconds();
  return { sub: identity.sub, email: identity.email, preferred_username: identity.username, iss: env.AUTH_ISSUER, aud: env.AUTH_AUDIENCE, iat: now, exp: now + 600, ...overrides };
}

/** A token with a hand-made header: HMAC-SHA256-signed with `hmacSecret`, or unsigned without it. */
async function handMadeToken(header: Record<string, unknown>, hmacSecret?: string) {
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims()))}`;
  if (hmacSecret === undefined) return `${unsigned}.`;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(hmacSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(unsigned)));
  return `${unsigned}.${base64url(mac)}`;
}

const withBearer = (token: string) => call('GET', ME, { headers: { authorization: `Bearer ${token}` } });

describe('portal authentication', () => {
  it('rejects a missing Authorization header', async () => {
    expectError(await call('GET', ME), 401, 'UNAUTHENTICATED', 'Missing bearer token');
  });

  it('rejects a header that is not a bearer token', async () => {
    expectError(await call('GET', ME, { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'UNAUTHENTICATED', /not a bearer token/);
  });

  it('rejects a malformed token', async () => {
    expectError(await withBearer('not-a-jwt'), 401, 'UNAUTHENTICATED', 'Malformed bearer token');
  });

  it('rejects a token expired beyond the 60 s tolerance', async () => {
    const token = await portalToken({ claims: { exp: nowSeconds() - 120 } });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token has expired');
  });

  it('accepts a token expired within the 60 s tolerance', async () => {
    const token = await portalToken({ claims: { exp: nowSeconds() - 20 } });
    expectOk(await withBearer(token), 200, currentAccountSchema);
  });

  it('rejects a token without exp', async () => {
    const token = await portalToken({ claims: { exp: undefined } });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token has no expiry');
  });

  it('rejects a wrong issuer', async () => {
    const token = await portalToken({ claims: { iss: 'https://evil.example/' } });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token issuer is not accepted');
  });

  it('rejects a wrong audience', async () => {
    const token = await portalToken({ claims: { aud: 'another-app' } });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token audience is not accepted');
  });

  it('rejects an unknown kid', async () => {
    const token = await sign(claims(), { ...testKeys.rs256, kid: 'unknown-kid' } as unknown as JsonWebKey & { alg: 'RS256'; kid: string });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token signed by an unknown key');
  });

  it('rejects a known kid signed with the wrong key material', async () => {
    const token = await portalToken({ key: 'rogueRs256' });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token signature is not valid');
  });

  it('rejects alg none', async () => {
    const token = await handMadeToken({ alg: 'none', typ: 'JWT', kid: testKeys.rs256.kid });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token algorithm none is not allowed');
  });

  it('rejects HS256, even keyed with the public RSA key (algorithm confusion)', async () => {
    const token = await handMadeToken({ alg: 'HS256', typ: 'JWT', kid: testKeys.rs256.kid }, testKeys.rs256.n);
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Token algorithm HS256 is not allowed');
  });

  it('accepts ES256', async () => {
    expectOk(await withBearer(await portalToken({ key: 'es256' })), 200, currentAccountSchema);
  });
});

describe('accounts at sign-in', () => {
  it('creates the account on first sight and finds the same one afterwards', async () => {
    const identity = newIdentity('first');
    const token = await portalToken(identity);
    const first = expectOk(await withBearer(token), 200, currentAccountSchema);
    expect(first).toEqual({ id: expect.stringMatching(/^acc_/), email: identity.email, username: identity.username, memberships: [] });
    const again = expectOk(await withBearer(await portalToken(identity)), 200, currentAccountSchema);
    expect(again.id).toBe(first.id);
  });

  it('falls back to the name claim for the username', async () => {
    const token = await portalToken({ claims: { preferred_username: undefined, name: 'Jane Doe' } });
    expect(expectOk(await withBearer(token), 200, currentAccountSchema).username).toBe('Jane Doe');
  });

  it('refuses to create an account from a token without email', async () => {
    const token = await portalToken({ claims: { email: undefined } });
    expectError(await withBearer(token), 401, 'UNAUTHENTICATED', /no email/);
  });

  it('links an invitation when the invited email first signs in', async () => {
    const tenant = await createTenant();
    const identity = newIdentity('invitee');
    const invite = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email: identity.email, role: 'editor' });
    expect(expectOk(invite, 201, memberSchema).status).toBe('invited');

    const person = { token: await portalToken({ ...identity, email: identity.email.toUpperCase() }) };
    const me = expectOk(await portalCall(person, 'GET', ME), 200, currentAccountSchema);
    expect(me.memberships).toEqual([{ tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug }, role: 'editor' }]);
    const members = expectOk(await portalCall(person, 'GET', `/api/v1/tenant/${tenant.id}/members`), 200, pageSchema(memberSchema));
    expect(members.items.find((m) => m.email === identity.email)).toMatchObject({ user_id: me.id, username: identity.username, status: 'active' });
  });
});

describe('tenant access', () => {
  it('answers 404 to a signed-in person who is not a member', async () => {
    const tenant = await createTenant();
    const outsider = await createPerson('outsider');
    expectError(await portalCall(outsider, 'GET', `/api/v1/tenant/${tenant.id}/members`), 404, 'NOT_FOUND', 'Tenant not found');
  });

  it('answers 403 to a member without the permission', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email: newIdentity().email, role: 'viewer' }), 403, 'FORBIDDEN');
  });

  it('checks the token before the tenant (401 on a tenant route)', async () => {
    const tenant = await createTenant();
    expectError(await call('GET', `/api/v1/tenant/${tenant.id}/members`), 401, 'UNAUTHENTICATED');
  });
});
