import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { internalWallets } from '../../src/db/schema';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { gatewayRequest, race } from '../support/race';
import { createTenant, createTestApiKey, db, gatewayCall, otherTenants, type TestTenant } from '../support/world';

const PATH = '/api/v1/gateway/customers';
const customerPage = pageSchema(customerSchema);

/** `given`: a tenant to key (from `otherTenants`: beside another on its shard, only tenant filters keep their rows apart). */
async function gatewayTenant(given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  return { tenant, key: await createTestApiKey(tenant.id) };
}

describe('POST /gateway/customers', () => {
  it('creates an active customer with zero XP and no tier (201)', async () => {
    const { key } = await gatewayTenant();
    const res = await gatewayCall(key, 'POST', PATH, { body: { external_id: 'user-1', email: 'Jane@Example.com', username: 'jane', country_code: 'DE' } });
    const customer = expectOk(res, 201, customerSchema);
    expect(customer).toMatchObject({
      external_id: 'user-1',
      email: 'jane@example.com',
      username: 'jane',
      country_code: 'DE',
      status: 'active',
      xp_balance: '0',
      lifetime_xp: '0',
      tier: null,
    });
    expect(customer.id).toMatch(/^cus_/);
  });

  it('accepts just an external_id; the other fields are null', async () => {
    const { key } = await gatewayTenant();
    const customer = await createCustomerViaApi(key, { external_id: 'bare' });
    expect(customer).toMatchObject({ external_id: 'bare', email: null, username: null, country_code: null });
  });

  it('updates the customer with the same external_id (200), changing only the fields sent', async () => {
    const { key } = await gatewayTenant();
    const created = await createCustomerViaApi(key, { external_id: 'user-2', email: 'a@example.com', username: 'alpha', country_code: 'FR' });
    const res = await gatewayCall(key, 'POST', PATH, { body: { external_id: 'user-2', username: 'beta', country_code: null } });
    const updated = expectOk(res, 200, customerSchema);
    expect(updated).toMatchObject({ id: created.id, email: 'a@example.com', username: 'beta', country_code: null, status: 'active' });
    expect(updated.created_at).toBe(created.created_at);
  });

  it('writes nothing when the same profile is sent again (updated_at stays)', async () => {
    const { key } = await gatewayTenant();
    const body = { external_id: 'steady', email: 'steady@example.com', username: 'steady' };
    const created = await createCustomerViaApi(key, body);
    const again = expectOk(await gatewayCall(key, 'POST', PATH, { body: { ...body, email: 'STEADY@example.com' } }), 200, customerSchema);
    expect(again).toEqual(created);
  });

  it('turns concurrent creations of one external_id into one customer (one 201, the rest 200)', async () => {
    const { key } = await gatewayTenant();
    // All three find no 'racer' and send their insert batch before any lands: the unique index decides.
    const requests = await Promise.all(Array.from({ length: 3 }, (_, i) => gatewayRequest(key, 'POST', PATH, { body: { external_id: 'racer', username: `r${i}` } })));
    const { responses: results, held } = await race(requests, /insert into "customers"/i);
    expect(held).toBe(3);
    expect(results.map((res) => res.status).sort()).toEqual([200, 200, 201]);
    const ids = results.map((res) => expectOk(res, res.status, customerSchema).id);
    expect(new Set(ids).size).toBe(1);
    // The losers' batches (customer and wallet) were rolled back whole: one wallet.
    expect(await db(key.tenantId).select().from(internalWallets).where(eq(internalWallets.userId, ids[0]!))).toHaveLength(1);
    const list = expectOk(await gatewayCall(key, 'GET', `${PATH}?external_id=racer`), 200, customerPage);
    expect(list.total_count).toBe(1);
  });

  it('keeps one tenant\'s external_id apart from another\'s (on another shard and on the same one)', async () => {
    const a = await gatewayTenant();
    const first = await createCustomerViaApi(a.key, { external_id: 'shared' });
    for (const other of await otherTenants(a.tenant.id)) {
      const b = await gatewayTenant(other);
      const second = await createCustomerViaApi(b.key, { external_id: 'shared' });
      expect(second.id).not.toBe(first.id);
    }
  });

  it('replays a retried creation with the same idempotency key', async () => {
    const { key } = await gatewayTenant();
    const body = { external_id: 'retry-me' };
    const first = await gatewayCall(key, 'POST', PATH, { body, idempotencyKey: 'create-retry-me' });
    expectOk(first, 201, customerSchema);
    const again = await gatewayCall(key, 'POST', PATH, { body, idempotencyKey: 'create-retry-me' });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('requires X-Idempotency-Key (400)', async () => {
    const { key } = await gatewayTenant();
    expectError(await gatewayCall(key, 'POST', PATH, { body: { external_id: 'x' }, idempotencyKey: null }), 400, 'IDEMPOTENCY_KEY_REQUIRED');
  });

  it.each([
    ['a lowercase country code', { external_id: 'x', country_code: 'de' }, 'country_code'],
    ['an unknown country code', { external_id: 'x', country_code: 'XX' }, 'country_code'],
    ['an alpha-3 country code', { external_id: 'x', country_code: 'DEU' }, 'country_code'],
    ['an invalid email', { external_id: 'x', email: 'not-an-email' }, 'email'],
    ['a missing external_id', { username: 'x' }, 'external_id'],
    ['an empty external_id', { external_id: '  ' }, 'external_id'],
    ['an unknown field', { external_id: 'x', xp_balance: 100 }, 'xp_balance'],
  ])('rejects %s (422 VALIDATION_FAILED)', async (_label, body, path) => {
    const { key } = await gatewayTenant();
    const error = expectError(await gatewayCall(key, 'POST', PATH, { body }), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toContain(path);
  });
});

describe('GET /gateway/customers', () => {
  it('filters by external_id, email (any case) and status', async () => {
    const { key } = await gatewayTenant();
    const jane = await createCustomerViaApi(key, { external_id: 'jane', email: 'jane@example.com' });
    await createCustomerViaApi(key, { external_id: 'john', email: 'john@example.com' });

    const byExternal = expectOk(await gatewayCall(key, 'GET', `${PATH}?external_id=jane`), 200, customerPage);
    expect(byExternal.items.map((c) => c.id)).toEqual([jane.id]);
    const byEmail = expectOk(await gatewayCall(key, 'GET', `${PATH}?email=JANE%40example.com`), 200, customerPage);
    expect(byEmail.items.map((c) => c.id)).toEqual([jane.id]);
    expect(expectOk(await gatewayCall(key, 'GET', `${PATH}?status=active`), 200, customerPage).total_count).toBe(2);
    expect(expectOk(await gatewayCall(key, 'GET', `${PATH}?status=suspended`), 200, customerPage).total_count).toBe(0);
  });

  it('pages: limit, page, total_pages, has_next_page; never another tenant\'s customers (on another shard and on the same one)', async () => {
    const { key } = await gatewayTenant();
    for (const tenant of await otherTenants(key.tenantId)) await createCustomerViaApi((await gatewayTenant(tenant)).key);
    const created = [];
    for (let i = 0; i < 5; i += 1) created.push(await createCustomerViaApi(key));

    const first = expectOk(await gatewayCall(key, 'GET', `${PATH}?limit=2&page=1`), 200, customerPage);
    expect(first).toMatchObject({ total_count: 5, page: 1, limit: 2, total_pages: 3, has_next_page: true });
    const second = expectOk(await gatewayCall(key, 'GET', `${PATH}?limit=2&page=2`), 200, customerPage);
    const last = expectOk(await gatewayCall(key, 'GET', `${PATH}?limit=2&page=3`), 200, customerPage);
    expect(last).toMatchObject({ page: 3, total_pages: 3, has_next_page: false });
    expect(last.items).toHaveLength(1);
    const seen = [...first.items, ...second.items, ...last.items].map((c) => c.id);
    expect(new Set(seen)).toEqual(new Set(created.map((c) => c.id)));
    const beyond = expectOk(await gatewayCall(key, 'GET', `${PATH}?limit=2&page=4`), 200, customerPage);
    expect(beyond).toMatchObject({ items: [], total_count: 5, has_next_page: false });
  });

  it('defaults to page 1 of 20, and an empty list has total_pages 0', async () => {
    const { key } = await gatewayTenant();
    const page = expectOk(await gatewayCall(key, 'GET', PATH), 200, customerPage);
    expect(page).toEqual({ items: [], total_count: 0, page: 1, limit: 20, total_pages: 0, has_next_page: false });
  });

  it.each(['limit=0', 'limit=101', 'page=0', 'status=deleted'])('rejects %s (422)', async (query) => {
    const { key } = await gatewayTenant();
    expectError(await gatewayCall(key, 'GET', `${PATH}?${query}`), 422, 'VALIDATION_FAILED');
  });
});

describe('GET /gateway/customers/{userId}', () => {
  it('returns the customer', async () => {
    const { key } = await gatewayTenant();
    const created = await createCustomerViaApi(key, { username: 'solo' });
    const found = expectOk(await gatewayCall(key, 'GET', `${PATH}/${created.id}`), 200, customerSchema);
    expect(found).toEqual(created);
  });

  it('answers 404 for an unknown id and for another tenant\'s customer (on another shard and on the same one)', async () => {
    const { key } = await gatewayTenant();
    expectError(await gatewayCall(key, 'GET', `${PATH}/cus_missing`), 404, 'NOT_FOUND');
    for (const tenant of await otherTenants(key.tenantId)) {
      const foreign = await createCustomerViaApi((await gatewayTenant(tenant)).key);
      const body = expectError(await gatewayCall(key, 'GET', `${PATH}/${foreign.id}`), 404, 'NOT_FOUND', 'Customer not found');
      expect(body.data).toBeNull();
    }
  });
});
