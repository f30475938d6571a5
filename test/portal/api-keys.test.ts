import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { apiKeySchema, createdApiKeySchema } from '../../src/schemas/api-key';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { addMember, createTenant, createTestApiKey, gatewayCall, otherTenants, portalCall, type TestMember } from '../support/world';

const keysPath = (tenantId: string) => `/api/v1/tenant/${tenantId}/api-keys`;
const revokePath = (tenantId: string, id: string) => `${keysPath(tenantId)}/${id}/revoke`;
const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function createKey(member: TestMember, tenantId: string, body: Record<string, unknown> = { name: 'Backend' }) {
  return expectOk(await portalCall(member, 'POST', keysPath(tenantId), body), 201, createdApiKeySchema);
}

async function listKeys(member: TestMember, tenantId: string, query = '') {
  return expectOk(await portalCall(member, 'GET', `${keysPath(tenantId)}${query}`), 200, pageSchema(apiKeySchema));
}

describe('POST /tenant/{tenantId}/api-keys', () => {
  it('creates an active key and shows its secret once, matching prefix and suffix', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.owner, tenant.id, { name: 'Backend', label: 'prod-eu' });
    expect(created).toMatchObject({ name: 'Backend', label: 'prod-eu', status: 'active', expires_at: null, last_used_at: null });
    expect(created.secret.startsWith(created.secret_prefix)).toBe(true);
    expect(created.secret.endsWith(created.secret_suffix)).toBe(true);
    expect(created.secret.length).toBeGreaterThan(created.secret_prefix.length + created.secret_suffix.length + 20);

    const listed = await listKeys(tenant.owner, tenant.id);
    expect(listed.items).toEqual([Object.fromEntries(Object.entries(created).filter(([field]) => field !== 'secret'))]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
  });

  it('issues a key the gateway accepts with the returned secret', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.owner, tenant.id);
    const key = { id: created.id, keyId: created.key_id, secret: created.secret, tenantId: tenant.id };
    expectError(await gatewayCall(key, 'GET', '/api/v1/gateway/internal-transactions/itx_missing'), 404, 'NOT_FOUND');
  });

  it('defaults the label to the name and lets an admin create', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    const created = await createKey(admin, tenant.id, { name: 'Only a name' });
    expect(created.label).toBe('Only a name');
  });

  it('normalizes expires_at to UTC with milliseconds', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.owner, tenant.id, { name: 'Expiring', expires_at: '2099-01-01T02:00:00+02:00' });
    expect(created.expires_at).toBe('2099-01-01T00:00:00.000Z');
    expect(created.status).toBe('active');
  });

  it.each([
    ['a past expires_at', { name: 'k', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    ['a date without time', { name: 'k', expires_at: '2099-01-01' }, 'expires_at'],
    ['a time without offset', { name: 'k', expires_at: '2099-01-01T00:00:00' }, 'expires_at'],
    ['a missing name', { label: 'x' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['an unknown field', { name: 'k', secret: 'mine' }, 'secret'],
  ])('answers 422 for %s', async (_case, body, path) => {
    const tenant = await createTenant();
    const error = expectError(await portalCall(tenant.owner, 'POST', keysPath(tenant.id), body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toEqual([path]);
  });

  it.each(['editor', 'viewer'] as const)('answers 403 to the %s role', async (role) => {
    const tenant = await createTenant();
    const member = await addMember(tenant.id, role);
    expectError(await portalCall(member, 'POST', keysPath(tenant.id), { name: 'k' }), 403, 'FORBIDDEN');
  });

  it('answers 404 tenant not found to a person of another tenant (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) {
      expectError(await portalCall(other.owner, 'POST', keysPath(tenant.id), { name: 'k' }), 404, 'NOT_FOUND', 'Tenant not found');
    }
  });

  it('answers 401 without a token', async () => {
    const tenant = await createTenant();
    expectError(await portalCall({ token: '' }, 'POST', keysPath(tenant.id), { name: 'k' }), 401, 'UNAUTHENTICATED');
  });
});

describe('POST /tenant/{tenantId}/api-keys: at most 20 active keys per tenant', () => {
  const atTheCap = 'A tenant has at most 20 active API keys (neither revoked nor expired): revoke one first';

  it('one more is 409 until one is revoked; revoked and expired keys do not count, nor another tenant’s (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    // On the tenant's shard, only the count's tenant filter leaves the other tenant's key out.
    const others = await otherTenants(tenant.id);
    await createTestApiKey(tenant.id, { expiresAt: '2020-01-01T00:00:00.000Z' });
    const revoked = await createKey(tenant.owner, tenant.id, { name: 'Revoked' });
    expectOk(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, revoked.id)), 200, apiKeySchema);
    await Promise.all(Array.from({ length: 19 }, () => createTestApiKey(tenant.id)));
    for (const other of others) await createTestApiKey(other.id);

    const twentieth = await createKey(tenant.owner, tenant.id, { name: 'Twentieth' });
    const refused = expectError(await portalCall(tenant.owner, 'POST', keysPath(tenant.id), { name: 'One more' }), 409, 'CONFLICT', atTheCap);
    expect(refused.errors).toEqual([{ path: '', message: atTheCap }]);
    expect((await listKeys(tenant.owner, tenant.id, '?status=active')).total_count).toBe(20);

    expectOk(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, twentieth.id)), 200, apiKeySchema);
    await createKey(tenant.owner, tenant.id, { name: 'In its place' });
    expectError(await portalCall(tenant.owner, 'POST', keysPath(tenant.id), { name: 'One more' }), 409, 'CONFLICT', atTheCap);
  });

  it('creates at once cannot pass the cap: exactly the room left succeeds (forced race)', async () => {
    const tenant = await createTenant();
    await Promise.all(Array.from({ length: 17 }, () => createTestApiKey(tenant.id)));
    const requests = Array.from({ length: 6 }, (_, i) => portalRequest(tenant.owner, 'POST', keysPath(tenant.id), { name: `Racing ${i}` }));
    const { responses, held } = await race(requests, /insert into "api_keys"/);
    expect(held).toBe(6);
    const created = responses.filter((res) => res.status === 201);
    expect(created).toHaveLength(3);
    for (const res of created) expectOk(res, 201, createdApiKeySchema);
    for (const res of responses.filter((res) => res.status !== 201)) expectError(res, 409, 'CONFLICT', atTheCap);
    expect((await listKeys(tenant.owner, tenant.id, '?status=active')).total_count).toBe(20);
  });
});

describe('GET /tenant/{tenantId}/api-keys', () => {
  it('pages newest first and filters by effective status', async () => {
    const tenant = await createTenant();
    const expired = await createTestApiKey(tenant.id, { expiresAt: '2020-01-01T00:00:00.000Z' });
    const revoked = await createKey(tenant.owner, tenant.id, { name: 'Revoked' });
    expectOk(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, revoked.id)), 200, apiKeySchema);
    const active = await createKey(tenant.owner, tenant.id, { name: 'Active', expires_at: inOneHour() });

    const all = await listKeys(tenant.owner, tenant.id);
    expect(all).toMatchObject({ total_count: 3, page: 1, limit: 20, total_pages: 1, has_next_page: false });
    expect(all.items.map((key) => key.id)).toEqual([active.id, revoked.id, expired.id]);

    const page2 = await listKeys(tenant.owner, tenant.id, '?page=2&limit=2');
    expect(page2).toMatchObject({ total_count: 3, page: 2, limit: 2, total_pages: 2, has_next_page: false });
    expect(page2.items.map((key) => key.id)).toEqual([expired.id]);

    for (const [status, id] of [['active', active.id], ['expired', expired.id], ['revoked', revoked.id]] as const) {
      const filtered = await listKeys(tenant.owner, tenant.id, `?status=${status}`);
      expect(filtered.items.map((key) => [key.id, key.status])).toEqual([[id, status]]);
    }
  });

  it('answers an empty page with total_pages 0 and never lists another tenant’s keys (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) await createTestApiKey(other.id);
    const page = await listKeys(tenant.owner, tenant.id);
    expect(page).toEqual({ items: [], total_count: 0, page: 1, limit: 20, total_pages: 0, has_next_page: false });
  });

  it.each([
    ['?status=deleted', 'status'],
    ['?limit=101', 'limit'],
    ['?page=0', 'page'],
  ])('answers 422 for %s', async (query, path) => {
    const tenant = await createTenant();
    const error = expectError(await portalCall(tenant.owner, 'GET', `${keysPath(tenant.id)}${query}`), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toEqual([path]);
  });

  it.each(['editor', 'viewer'] as const)('answers 403 to the %s role', async (role) => {
    const tenant = await createTenant();
    const member = await addMember(tenant.id, role);
    expectError(await portalCall(member, 'GET', keysPath(tenant.id)), 403, 'FORBIDDEN');
  });

  it('answers 404 tenant not found to a non-member (of a tenant on another shard and on the same one) and for an unknown tenant', async () => {
    const tenant = await createTenant();
    for (const outsider of await otherTenants(tenant.id, 'outsider')) {
      expectError(await portalCall(outsider.owner, 'GET', keysPath(tenant.id)), 404, 'NOT_FOUND', 'Tenant not found');
    }
    expectError(await portalCall(tenant.owner, 'GET', keysPath('ten_unknown')), 404, 'NOT_FOUND', 'Tenant not found');
  });
});

describe('POST /tenant/{tenantId}/api-keys/{id}/revoke', () => {
  it('revokes, and revoking again answers the same record', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.owner, tenant.id);
    const revoked = expectOk(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, created.id)), 200, apiKeySchema);
    expect(revoked).toMatchObject({ id: created.id, key_id: created.key_id, status: 'revoked' });
    expect(revoked.updated_at >= created.updated_at).toBe(true);
    const again = expectOk(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, created.id)), 200, apiKeySchema);
    expect(again).toEqual(revoked);
  });

  it('revokes an expired key (it stays revoked, not expired)', async () => {
    const tenant = await createTenant();
    const expired = await createTestApiKey(tenant.id, { expiresAt: '2020-01-01T00:00:00.000Z' });
    const revoked = expectOk(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, expired.id)), 200, apiKeySchema);
    expect(revoked.status).toBe('revoked');
  });

  it('answers 404 for a key of another tenant, on another shard and on the same one (and leaves it active), or an unknown id', async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) {
      const foreign = await createKey(other.owner, other.id);
      expectError(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, foreign.id)), 404, 'NOT_FOUND', 'API key not found');
      const theirs = await listKeys(other.owner, other.id);
      expect(theirs.items.map((key) => key.status)).toEqual(['active']);
    }
    expectError(await portalCall(tenant.owner, 'POST', revokePath(tenant.id, 'apk_unknown')), 404, 'NOT_FOUND', 'API key not found');
  });

  it.each(['editor', 'viewer'] as const)('answers 403 to the %s role and leaves the key active', async (role) => {
    const tenant = await createTenant();
    const member = await addMember(tenant.id, role);
    const created = await createKey(tenant.owner, tenant.id);
    expectError(await portalCall(member, 'POST', revokePath(tenant.id, created.id)), 403, 'FORBIDDEN');
    expect((await listKeys(tenant.owner, tenant.id)).items[0]?.status).toBe('active');
  });

  it('answers 404 tenant not found to a non-member (of a tenant on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.owner, tenant.id);
    for (const outsider of await otherTenants(tenant.id, 'outsider')) {
      expectError(await portalCall(outsider.owner, 'POST', revokePath(tenant.id, created.id)), 404, 'NOT_FOUND', 'Tenant not found');
    }
  });
});
