import { describe, expect, it } from 'vitest';
import { internalTransactions, type TransactionStatus, type TransactionType } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { expectError, expectOk } from '../support/http';
import { createCustomer } from '../support/ledger';
import { addMember, createTenant, createTestApiKey, db, gatewayCall, otherTenants, portalCall } from '../support/world';

const listSchema = pageSchema(internalTransactionSchema);

/** Transactions at distinct, known times (oldest first), so "newest first" is checkable. */
async function seed(tenantId: string, userId: string, rows: { type: TransactionType; status?: TransactionStatus; amount: number }[]) {
  const ids: string[] = [];
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const values = rows.map((row, i) => {
    const id = newId('itx');
    ids.push(id);
    const at = new Date(base + i * 60_000).toISOString();
    return { id, tenantId, userId, type: row.type, amount: row.amount, status: row.status ?? 'completed', createdAt: at, updatedAt: at };
  });
  await db(tenantId).insert(internalTransactions).values(values);
  return ids;
}

async function world() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const alice = await createCustomer(tenant.id, { username: 'alice', email: 'alice@example.com' });
  const bob = await createCustomer(tenant.id, { username: null, email: null });
  const aliceIds = await seed(tenant.id, alice, [
    { type: 'xp_earn', amount: 100 },
    { type: 'xp_bonus', amount: 50 },
    { type: 'xp_redeem', amount: -30, status: 'pending' },
  ]);
  const bobIds = await seed(tenant.id, bob, [{ type: 'xp_admin_adjust', amount: 5, status: 'failed' }]);
  // A transaction of each of two other tenants: one on another shard, one beside the tenant on its shard.
  const others: { tenant: { id: string }; stranger: string; ids: string[] }[] = [];
  for (const other of await otherTenants(tenant.id)) {
    const stranger = await createCustomer(other.id);
    others.push({ tenant: other, stranger, ids: await seed(other.id, stranger, [{ type: 'xp_earn', amount: 1 }]) });
  }
  return { tenant, key, alice, bob, aliceIds, bobIds, others };
}

const portalList = (tenantId: string, query = '') => `/api/v1/tenant/${tenantId}/internal-transactions${query}`;
const gatewayList = (query = '') => `/api/v1/gateway/internal-transactions${query}`;

describe('GET /tenant/{tenantId}/internal-transactions', () => {
  it('pages the tenant’s transactions newest first, with tenant and user briefs (none of tenants on another shard or the same one)', async () => {
    const w = await world();
    const data = expectOk(await portalCall(w.tenant.owner, 'GET', portalList(w.tenant.id, '?limit=2')), 200, listSchema);
    expect(data).toMatchObject({ total_count: 4, page: 1, limit: 2, total_pages: 2, has_next_page: true });
    // Newest first is the order the ledger recorded them (docs/decisions/0053-lists-counts-and-analytics-at-scale.md): bob's
    // transaction was recorded last, though seeded with the same created_at as alice's first.
    const all = expectOk(await portalCall(w.tenant.owner, 'GET', portalList(w.tenant.id)), 200, listSchema);
    expect(all.items.map((item) => item.id)).toEqual([...w.bobIds, ...[...w.aliceIds].reverse()]);
    for (const other of w.others) expect(all.items.map((item) => item.id)).not.toContain(other.ids[0]);

    const aliceEarn = all.items.find((item) => item.id === w.aliceIds[0])!;
    expect(aliceEarn.tenant).toEqual({ id: w.tenant.id, name: w.tenant.name, slug: w.tenant.slug });
    expect(aliceEarn.user).toEqual({ id: w.alice, username: 'alice', email: 'alice@example.com' });
    const bobAdjust = all.items.find((item) => item.id === w.bobIds[0])!;
    expect(bobAdjust.user).toEqual({ id: w.bob, username: '', email: '' });

    const second = expectOk(await portalCall(w.tenant.owner, 'GET', portalList(w.tenant.id, '?limit=2&page=2')), 200, listSchema);
    expect(second).toMatchObject({ page: 2, has_next_page: false });
    expect([...data.items, ...second.items].map((item) => item.id)).toEqual(all.items.map((item) => item.id));
  });

  it('filters by type, status and user_id (another tenant’s customer, on another shard or the same one, yields an empty page)', async () => {
    const w = await world();
    const get = async (query: string) => expectOk(await portalCall(w.tenant.owner, 'GET', portalList(w.tenant.id, query)), 200, listSchema);
    expect((await get('?type=xp_bonus')).items.map((item) => item.id)).toEqual([w.aliceIds[1]]);
    expect((await get('?status=pending')).items.map((item) => item.id)).toEqual([w.aliceIds[2]]);
    expect((await get(`?user_id=${w.bob}`)).items.map((item) => item.id)).toEqual(w.bobIds);
    expect((await get(`?user_id=${w.alice}&type=xp_earn&status=completed`)).items.map((item) => item.id)).toEqual([w.aliceIds[0]]);
    for (const { stranger } of w.others) {
      expect(await get(`?user_id=${stranger}`)).toEqual({ items: [], total_count: 0, page: 1, limit: 20, total_pages: 0, has_next_page: false });
    }
  });

  it('rejects values outside the spec enums and bad paging with 422', async () => {
    const tenant = await createTenant();
    for (const [query, path] of [['?type=xp_refund', 'type'], ['?status=done', 'status'], ['?limit=101', 'limit'], ['?page=0', 'page']]) {
      const body = expectError(await portalCall(tenant.owner, 'GET', portalList(tenant.id, query)), 422, 'VALIDATION_FAILED');
      expect(body.errors.map((e) => e.path)).toContain(path);
    }
  });

  it('is readable by a viewer', async () => {
    const w = await world();
    const viewer = await addMember(w.tenant.id, 'viewer');
    expectOk(await portalCall(viewer, 'GET', portalList(w.tenant.id)), 200, listSchema);
  });

  it('answers 404 for a tenant the caller is not a member of (on another shard or the same one)', async () => {
    const w = await world();
    for (const other of w.others) expectError(await portalCall(w.tenant.owner, 'GET', portalList(other.tenant.id)), 404, 'NOT_FOUND');
  });
});

describe('GET /tenant/{tenantId}/internal-transactions/{id}', () => {
  it('returns one transaction with tenant and user briefs', async () => {
    const w = await world();
    const data = expectOk(await portalCall(w.tenant.owner, 'GET', portalList(w.tenant.id, `/${w.aliceIds[2]}`)), 200, internalTransactionSchema);
    expect(data).toMatchObject({ id: w.aliceIds[2], type: 'xp_redeem', amount: '-30', status: 'pending', user_id: w.alice, reward: null });
    expect(data.tenant).toEqual({ id: w.tenant.id, name: w.tenant.name, slug: w.tenant.slug });
    expect(data.user).toEqual({ id: w.alice, username: 'alice', email: 'alice@example.com' });
  });

  it("answers 404 for another tenant's transaction (on another shard or the same one) and for an unknown id", async () => {
    const w = await world();
    for (const other of w.others) {
      expectError(await portalCall(w.tenant.owner, 'GET', portalList(w.tenant.id, `/${other.ids[0]}`)), 404, 'NOT_FOUND', 'Internal transaction not found');
      expectError(await portalCall(w.tenant.owner, 'GET', portalList(other.tenant.id, `/${other.ids[0]}`)), 404, 'NOT_FOUND');
    }
    expectError(await portalCall(w.tenant.owner, 'GET', portalList(w.tenant.id, '/itx_missing')), 404, 'NOT_FOUND');
  });
});

describe('GET /gateway/internal-transactions', () => {
  it('pages the key’s tenant’s transactions newest first, without admin briefs (none of tenants on another shard or the same one)', async () => {
    const w = await world();
    const data = expectOk(await gatewayCall(w.key, 'GET', gatewayList('?limit=3')), 200, listSchema);
    expect(data).toMatchObject({ total_count: 4, page: 1, limit: 3, total_pages: 2, has_next_page: true });
    expect(data.items).toHaveLength(3);
    for (const item of data.items) {
      expect(item.tenant_id).toBe(w.tenant.id);
      expect(item).not.toHaveProperty('tenant');
      expect(item).not.toHaveProperty('user');
    }
    const all = expectOk(await gatewayCall(w.key, 'GET', gatewayList()), 200, listSchema);
    for (const other of w.others) expect(all.items.map((item) => item.id)).not.toContain(other.ids[0]);
  });

  it('filters by user_id, type and status; another tenant’s customer (on another shard or the same one) yields an empty page', async () => {
    const w = await world();
    const get = async (query: string) => expectOk(await gatewayCall(w.key, 'GET', gatewayList(query)), 200, listSchema);
    expect((await get(`?user_id=${w.alice}`)).items.map((item) => item.id)).toEqual([...w.aliceIds].reverse());
    expect((await get('?type=xp_admin_adjust&status=failed')).items.map((item) => item.id)).toEqual(w.bobIds);
    for (const { stranger } of w.others) expect((await get(`?user_id=${stranger}`)).total_count).toBe(0);
  });

  it('rejects values outside the spec enums and bad paging with 422', async () => {
    const w = await world();
    for (const [query, path] of [['?type=bogus', 'type'], ['?status=bogus', 'status'], ['?limit=0', 'limit'], ['?limit=101', 'limit'], ['?page=0', 'page']]) {
      const body = expectError(await gatewayCall(w.key, 'GET', gatewayList(query)), 422, 'VALIDATION_FAILED');
      expect(body.errors.map((e) => e.path), query).toEqual([path]);
    }
  });

  it('answers 401 for a bad signature', async () => {
    const w = await world();
    expectError(await gatewayCall({ ...w.key, secret: 'sk_wrong' }, 'GET', gatewayList()), 401, 'AUTH_INVALID_CREDENTIALS');
  });
});
