import { env } from 'cloudflare:test';
import { sign } from 'hono/utils/jwt/jwt';
import { describe, expect, it } from 'vitest';
import { verifyPortalToken } from '../../src/auth/jwt';
import { pageSchema } from '../../src/lib/paging';
import { currentAccountSchema } from '../../src/schemas/account';
import { memberSchema } from '../../src/schemas/member';
import { call, expectError, expectOk } from '../support/http';
import { testKeys } from '../support/keys';
import { newIdentity, portalToken } from '../support/tokens';
import { addMember, createPerson, createTenant, otherTenants, portalCall } from '../support/world';

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

/** An RS256 token with a hand-made header, signed with the trusted test key. */
async function rs256Token(header: Record<string, unknown>) {
  const unsigned = `${base64url(JSON.stringify({ alg: 'RS256', kid: testKeys.rs256.kid, ...header }))}.${base64url(JSON.stringify(claims()))}`;
  const key = await crypto.subtle.importKey('jwk', testKeys.rs256 as JsonWebKey, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, new TextEncoder().encode(unsigned)));
  return `${unsigned}.${base64url(signature)}`;
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

  it('rejects a token whose header is JSON but not an object (401, never 500)', async () => {
    for (const header of ['null', '1', '"RS256"', '[]']) {
      const token = `${base64url(header)}.${base64url(JSON.stringify(claims()))}.sig`;
      expectError(await withBearer(token), 401, 'UNAUTHENTICATED', 'Malformed bearer token');
    }
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

  it('refuses to verify anything when AUTH_ISSUER or AUTH_AUDIENCE is blank (the iss/aud checks would pass any token)', async () => {
    const token = await portalToken({ claims: { iss: 'https://evil.example/', aud: 'another-app' } });
    const jwks = { inline: env.AUTH_JWKS };
    await expect(verifyPortalToken(token, { issuer: '', audience: env.AUTH_AUDIENCE, jwks })).rejects.toThrow(/must be configured/);
    await expect(verifyPortalToken(token, { issuer: env.AUTH_ISSUER, audience: ' ', jwks })).rejects.toThrow(/must be configured/);
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

  it('accepts typ JWT, at+jwt (RFC 9068 access tokens) or none, and rejects another typ', async () => {
    for (const typ of ['JWT', 'at+jwt', undefined]) {
      expectOk(await withBearer(await rs256Token(typ === undefined ? {} : { typ })), 200, currentAccountSchema);
    }
    expectError(await withBearer(await rs256Token({ typ: 'id+jwt' })), 401, 'UNAUTHENTICATED', 'Token signature is not valid');
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

describe('invitations and unverified emails', () => {
  it('lets an invited person in on their very first request, made to the tenant itself', async () => {
    const tenant = await createTenant();
    const identity = newIdentity('first-at-tenant');
    expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email: identity.email, role: 'viewer' }), 201, memberSchema);
    const person = { token: await portalToken(identity) };
    const members = expectOk(await portalCall(person, 'GET', `/api/v1/tenant/${tenant.id}/members`), 200, pageSchema(memberSchema));
    expect(members.items.find((m) => m.email === identity.email)).toMatchObject({ role: 'viewer', status: 'active' });
  });

  it('does not hand an invitation to a token whose email the identity provider marks unverified', async () => {
    const tenant = await createTenant();
    const identity = newIdentity('unverified');
    expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email: identity.email, role: 'admin' }), 201, memberSchema);
    const person = { token: await portalToken({ ...identity, claims: { email_verified: false } }) };
    expect(expectOk(await portalCall(person, 'GET', ME), 200, currentAccountSchema).memberships).toEqual([]);
    expectError(await portalCall(person, 'GET', `/api/v1/tenant/${tenant.id}/members`), 404, 'NOT_FOUND');
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

/**
 * Every route under /tenant/{tenantId}, as the OpenAPI document lists them (a test below keeps this
 * table complete), with a body the route accepts and the permission its handler asserts.
 * Placeholders: {tenantId} and the resource ids are filled per test; the ids need not exist, since
 * authentication, membership and permission are all decided before the resource is looked up.
 */
type PortalRoute = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; body?: unknown; needs?: 'edit_program' | 'manage_api_keys' | 'manage_members' | 'manage_onchain_assets' | 'manage_webhooks' | 'manage_program_settings' | 'manage_personal_data' | 'run_imports_exports' | 'read_audit_log' };

const cohortRules = { operator: 'and', predicates: [{ type: 'status', op: 'eq', value: 'active' }] };
const tierBody = { tier_name: 'Gold', min_xp_threshold: 10, benefits_description: '', color: '', icon: '' };

const portalRoutes: PortalRoute[] = [
  { method: 'GET', path: '/members' },
  { method: 'POST', path: '/members', body: { email: 'new-member@example.com', role: 'viewer' }, needs: 'manage_members' },
  { method: 'PATCH', path: '/members/{userId}', body: { role: 'viewer' }, needs: 'manage_members' },
  { method: 'DELETE', path: '/members/{userId}', needs: 'manage_members' },
  { method: 'GET', path: '/api-keys', needs: 'manage_api_keys' },
  { method: 'POST', path: '/api-keys', body: { name: 'k' }, needs: 'manage_api_keys' },
  { method: 'POST', path: '/api-keys/{id}/revoke', needs: 'manage_api_keys' },
  { method: 'GET', path: '/internal-transactions' },
  { method: 'GET', path: '/internal-transactions/{internal_transaction_id}' },
  { method: 'POST', path: '/customers/{userId}/xp-adjustments', body: { amount: '5', notes: 'x' }, needs: 'edit_program' },
  { method: 'GET', path: '/attributes' },
  { method: 'POST', path: '/attributes', body: { key: 'plan', type: 'string' }, needs: 'edit_program' },
  { method: 'DELETE', path: '/attributes/{attributeId}', needs: 'edit_program' },
  { method: 'GET', path: '/customers/{customer_id}/attributes' },
  { method: 'PUT', path: '/customers/{customer_id}/attributes', body: { values: { plan: 'pro' } }, needs: 'edit_program' },
  { method: 'GET', path: '/cohorts' },
  { method: 'POST', path: '/cohorts', body: { name: 'c', rules: cohortRules }, needs: 'edit_program' },
  { method: 'GET', path: '/cohorts/{cohortId}' },
  { method: 'PATCH', path: '/cohorts/{cohortId}', body: { name: 'renamed' }, needs: 'edit_program' },
  { method: 'DELETE', path: '/cohorts/{cohortId}', needs: 'edit_program' },
  { method: 'GET', path: '/cohorts/{cohortId}/members' },
  { method: 'GET', path: '/customers' },
  { method: 'GET', path: '/customers/{userId}' },
  { method: 'PATCH', path: '/customers/{userId}', body: { status: 'suspended' }, needs: 'edit_program' },
  { method: 'POST', path: '/customers/{userId}/erase', needs: 'manage_personal_data' },
  { method: 'GET', path: '/customers/{userId}/export', needs: 'manage_personal_data' },
  { method: 'GET', path: '/customers/{userId}/balances' },
  { method: 'GET', path: '/customers/{userId}/points' },
  { method: 'GET', path: '/customers/{userId}/point-lots' },
  { method: 'GET', path: '/customers/{userId}/tier/{tierId}/eligibility' },
  { method: 'GET', path: '/tiers' },
  { method: 'POST', path: '/tiers', body: { tier_name: 'Gold', min_xp_threshold: 10 }, needs: 'edit_program' },
  { method: 'PUT', path: '/tiers/{tierId}', body: tierBody, needs: 'edit_program' },
  { method: 'DELETE', path: '/tiers/{tierId}', needs: 'edit_program' },
  { method: 'GET', path: '/rewards' },
  { method: 'POST', path: '/rewards', body: { title: 'Coffee', xp_cost: '10' }, needs: 'edit_program' },
  { method: 'GET', path: '/rewards/{rewardId}' },
  { method: 'PATCH', path: '/rewards/{rewardId}', body: { title: 'Tea' }, needs: 'edit_program' },
  { method: 'DELETE', path: '/rewards/{rewardId}', needs: 'edit_program' },
  { method: 'GET', path: '/redemptions' },
  { method: 'GET', path: '/redemptions/{redemption_id}' },
  { method: 'POST', path: '/redemptions/{redemption_id}/cancel', needs: 'edit_program' },
  { method: 'GET', path: '/earning-rules' },
  { method: 'POST', path: '/earning-rules', body: { name: 'r', event_type: 'order.paid', effect: { kind: 'fixed', amount: '5' } }, needs: 'edit_program' },
  { method: 'GET', path: '/earning-rules/{id}' },
  { method: 'PATCH', path: '/earning-rules/{id}', body: { name: 'renamed' }, needs: 'edit_program' },
  { method: 'DELETE', path: '/earning-rules/{id}', needs: 'edit_program' },
  { method: 'POST', path: '/earning-rules/simulate', body: { user_id: 'cus_x', type: 'order.paid' }, needs: 'edit_program' },
  { method: 'GET', path: '/events' },
  { method: 'GET', path: '/events/{id}' },
  { method: 'GET', path: '/program-settings' },
  { method: 'PUT', path: '/program-settings', body: { timezone: 'Europe/Paris' }, needs: 'manage_program_settings' },
  { method: 'GET', path: '/analytics/top-rewards' },
  { method: 'GET', path: '/analytics/top-countries' },
  { method: 'GET', path: '/onchain-assets' },
  { method: 'POST', path: '/onchain-assets', body: { type: 'erc721', chain_id: 31337, name: 'Badge', symbol: 'BDG' }, needs: 'manage_onchain_assets' },
  { method: 'GET', path: '/onchain-assets/{id}' },
  { method: 'PATCH', path: '/onchain-assets/{id}', body: { name: 'Renamed' }, needs: 'manage_onchain_assets' },
  { method: 'DELETE', path: '/onchain-assets/{id}', needs: 'manage_onchain_assets' },
  { method: 'GET', path: '/onchain-assets/{id}/reconciliation' },
  { method: 'GET', path: '/webhook-endpoints', needs: 'manage_webhooks' },
  { method: 'POST', path: '/webhook-endpoints', body: { url: 'https://hooks.example.com/loyalty', event_types: ['customer.created'] }, needs: 'manage_webhooks' },
  { method: 'GET', path: '/webhook-endpoints/{id}', needs: 'manage_webhooks' },
  { method: 'PATCH', path: '/webhook-endpoints/{id}', body: { status: 'disabled' }, needs: 'manage_webhooks' },
  { method: 'DELETE', path: '/webhook-endpoints/{id}', needs: 'manage_webhooks' },
  { method: 'POST', path: '/webhook-endpoints/{id}/rotate-secret', needs: 'manage_webhooks' },
  { method: 'GET', path: '/webhook-endpoints/{id}/deliveries', needs: 'manage_webhooks' },
  { method: 'POST', path: '/webhook-endpoints/{id}/deliveries/{deliveryId}/replay', needs: 'manage_webhooks' },
  { method: 'GET', path: '/audit-log', needs: 'read_audit_log' },
  { method: 'GET', path: '/imports', needs: 'run_imports_exports' },
  { method: 'POST', path: '/imports', needs: 'run_imports_exports' },
  { method: 'GET', path: '/imports/{importId}', needs: 'run_imports_exports' },
  { method: 'GET', path: '/imports/{importId}/errors', needs: 'run_imports_exports' },
  { method: 'GET', path: '/exports', needs: 'run_imports_exports' },
  { method: 'POST', path: '/exports', body: { kind: 'customers' }, needs: 'run_imports_exports' },
  { method: 'GET', path: '/exports/{exportId}', needs: 'run_imports_exports' },
];

const routeName = (route: PortalRoute) => `${route.method} ${route.path}`;

/** The concrete url of a route in `tenantId`, every other placeholder an id that exists nowhere. */
const urlOf = (route: PortalRoute, tenantId: string) =>
  `/api/v1/tenant/${tenantId}${route.path.replace(/\{(\w+)\}/g, (_match, name: string) => `${name}_missing`)}`;

const rolesWithout = { edit_program: ['viewer'], manage_api_keys: ['editor', 'viewer'], manage_members: ['editor', 'viewer'], manage_onchain_assets: ['editor', 'viewer'], manage_webhooks: ['editor', 'viewer'], manage_program_settings: ['editor', 'viewer'], manage_personal_data: ['editor', 'viewer'], run_imports_exports: ['editor', 'viewer'], read_audit_log: ['editor', 'viewer'] } as const;

describe('every tenant route', () => {
  it('is in the table above, and the table documents 403 exactly where a role is needed', async () => {
    const res = await call('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const paths = (res.body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }).paths;
    const documented = Object.entries(paths)
      .filter(([path]) => path.startsWith('/tenant/{tenantId}'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path.slice('/tenant/{tenantId}'.length)}`, op })));
    expect(documented.map((d) => d.name).sort()).toEqual(portalRoutes.map(routeName).sort());
    for (const { name, op } of documented) {
      const route = portalRoutes.find((r) => routeName(r) === name)!;
      expect(Object.keys(op.responses), name).toEqual(expect.arrayContaining(['401', '404']));
      expect(Object.keys(op.responses).includes('403'), name).toBe(route.needs !== undefined);
    }
  });

  it.each(portalRoutes.map((route) => [routeName(route), route] as const))('%s: 401 without a token, 404 "Tenant not found" to a non-member and for an unknown tenant', async (_name, route) => {
    const tenant = await createTenant();
    const noToken = expectError(await call(route.method, urlOf(route, tenant.id), { body: route.body }), 401, 'UNAUTHENTICATED', 'Missing bearer token');
    expect(noToken.data).toBeNull();
    // A member of another tenant (on another shard or on the same one), even its super_admin, learns nothing about this one.
    for (const outsider of await otherTenants(tenant.id, 'outsider')) {
      const foreign = expectError(await portalCall(outsider.owner, route.method, urlOf(route, tenant.id), route.body), 404, 'NOT_FOUND', 'Tenant not found');
      expect(foreign.errors).toEqual([{ path: '', message: 'Tenant not found' }]);
    }
    expectError(await portalCall(tenant.owner, route.method, urlOf(route, 'ten_missing'), route.body), 404, 'NOT_FOUND', 'Tenant not found');
  });

  it.each(portalRoutes.filter((route) => route.needs).map((route) => [routeName(route), route] as const))('%s: 403 FORBIDDEN to a member whose role lacks the permission', async (_name, route) => {
    const tenant = await createTenant();
    const roles = rolesWithout[route.needs!];
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      const member = await addMember(tenant.id, role);
      const body = expectError(await portalCall(member, route.method, urlOf(route, tenant.id), route.body), 403, 'FORBIDDEN', `Your role (${role}) may not ${route.needs!.replaceAll('_', ' ')} in this tenant`);
      expect(body.data).toBeNull();
    }
  });
});
