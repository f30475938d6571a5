import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerAssetBalances, internalTransactions, onchainAssets, onchainOperations, rewards, type OnchainOperationStatus } from '../../src/db/schema';
import { successFlagSchema } from '../../src/lib/envelope';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { reconciliationSchema } from '../../src/schemas/onchain-asset';
import { expectError, expectOk } from '../support/http';
import { insertReward } from '../support/rewards';
import { addMember, createTenant, db, otherTenants, portalCall } from '../support/world';
import { randomAddress } from '../support/rewards';
import { assetsPath, insertAssetRow } from './helpers';

const assetPage = pageSchema(onchainAssetSchema);

describe('list', () => {
  it('pages newest first and filters by type, chain_id and key', async () => {
    const tenant = await createTenant();
    const a = await insertAssetRow(tenant.id, { key: 'xp', createdAt: '2026-01-01T00:00:01.000Z' });
    const b = await insertAssetRow(tenant.id, { type: 'erc721', key: 'badge', createdAt: '2026-01-01T00:00:02.000Z' });
    const c = await insertAssetRow(tenant.id, { type: 'erc1155', chainId: 31338, createdAt: '2026-01-01T00:00:03.000Z' });
    for (const other of await otherTenants(tenant.id)) await insertAssetRow(other.id, { key: 'xp' }); // other tenants' (on another shard and on the same one): never listed
    const list = async (query: string) => expectOk(await portalCall(tenant.owner, 'GET', assetsPath(tenant.id, query)), 200, assetPage);

    const all = await list('');
    expect(all.items.map((item) => item.id)).toEqual([c.id, b.id, a.id]);
    expect(all).toMatchObject({ total_count: 3, page: 1, limit: 20, total_pages: 1, has_next_page: false });

    const page2 = await list('?limit=2&page=2');
    expect(page2.items.map((item) => item.id)).toEqual([a.id]);
    expect(page2).toMatchObject({ total_count: 3, page: 2, limit: 2, total_pages: 2, has_next_page: false });
    expect((await list('?limit=2')).has_next_page).toBe(true);

    expect((await list('?type=erc721')).items.map((item) => item.id)).toEqual([b.id]);
    expect((await list('?chain_id=31338')).items.map((item) => item.id)).toEqual([c.id]);
    expect((await list('?chain_id=31337&type=erc20')).items.map((item) => item.id)).toEqual([a.id]);
    expect((await list('?key=xp')).items.map((item) => item.id)).toEqual([a.id]);
    expect((await list('?key=nope')).total_count).toBe(0);
  });

  it('422 for a filter outside its values', async () => {
    const tenant = await createTenant();
    for (const [query, path] of [['?type=erc777', 'type'], ['?chain_id=abc', 'chain_id'], ['?limit=101', 'limit']] as const) {
      const error = expectError(await portalCall(tenant.owner, 'GET', assetsPath(tenant.id, query)), 422, 'VALIDATION_FAILED');
      expect(error.errors.map((e) => e.path)).toEqual([path]);
    }
  });

  it('shows a deploying asset without asset_address', async () => {
    const tenant = await createTenant();
    await insertAssetRow(tenant.id, { status: 'deploying', assetAddress: null });
    const [item] = expectOk(await portalCall(tenant.owner, 'GET', assetsPath(tenant.id)), 200, assetPage).items;
    expect(item).toMatchObject({ status: 'deploying' });
    expect(item).not.toHaveProperty('asset_address');
  });
});

describe('get', () => {
  it('every member reads one asset; 404 for an unknown id', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id, { key: 'points', totalOwners: 3, totalTxns: 7, metadata: { a: 1 } });
    const viewer = await addMember(tenant.id, 'viewer');
    const got = expectOk(await portalCall(viewer, 'GET', assetsPath(tenant.id, `/${asset.id}`)), 200, onchainAssetSchema);
    expect(got).toMatchObject({ id: asset.id, key: 'points', asset_address: asset.assetAddress, total_owners: 3, total_txns: 7, metadata: { a: 1 } });
    expectError(await portalCall(viewer, 'GET', assetsPath(tenant.id, '/ast_missing')), 404, 'NOT_FOUND', 'Onchain asset not found');
  });
});

describe('update', () => {
  it('changes name, symbol and metadata, and moves status between active and inactive', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id);
    const patch = (body: unknown) => portalCall(tenant.owner, 'PATCH', assetsPath(tenant.id, `/${asset.id}`), body);
    const renamed = expectOk(await patch({ name: 'Gold', symbol: 'GLD', metadata: { tier: 'gold' } }), 200, onchainAssetSchema);
    expect(renamed).toMatchObject({ name: 'Gold', symbol: 'GLD', metadata: { tier: 'gold' }, status: 'active' });
    expect(expectOk(await patch({ status: 'inactive' }), 200, onchainAssetSchema).status).toBe('inactive');
    expect(expectOk(await patch({ status: 'inactive' }), 200, onchainAssetSchema).status).toBe('inactive');
    expect(expectOk(await patch({ status: 'active', metadata: null }), 200, onchainAssetSchema)).toMatchObject({ status: 'active', metadata: null });
  });

  it.each([
    ['active', 'deploying'],
    ['active', 'failed'],
    ['inactive', 'deploying'],
    ['deploying', 'active'],
    ['deploying', 'inactive'],
    ['deploying', 'deploying'],
    ['failed', 'active'],
    ['failed', 'inactive'],
  ] as const)('409 INVALID_STATUS_TRANSITION from %s to %s', async (from, to) => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id, { status: from, assetAddress: from === 'deploying' ? null : randomAddress() });
    const error = expectError(await portalCall(tenant.owner, 'PATCH', assetsPath(tenant.id, `/${asset.id}`), { status: to }), 409, 'INVALID_STATUS_TRANSITION', `Onchain asset status cannot move from ${from} to ${to}`);
    expect(error.errors.map((e) => e.path)).toEqual(['status']);
  });

  it('renames a deploying asset (labels only, its status is the settlement core\'s)', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id, { status: 'deploying', assetAddress: null });
    const updated = expectOk(await portalCall(tenant.owner, 'PATCH', assetsPath(tenant.id, `/${asset.id}`), { name: 'Later' }), 200, onchainAssetSchema);
    expect(updated).toMatchObject({ name: 'Later', status: 'deploying' });
  });

  it('422 for an empty body, an unknown or immutable field, or an unknown status', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id);
    for (const body of [{}, { key: 'other' }, { asset_address: randomAddress() }, { status: 'paused' }, { name: '' }]) {
      expectError(await portalCall(tenant.owner, 'PATCH', assetsPath(tenant.id, `/${asset.id}`), body), 422, 'VALIDATION_FAILED');
    }
  });
});

async function insertOperation(tenantId: string, assetId: string, status: OnchainOperationStatus) {
  const id = newId('op');
  await db(tenantId).insert(onchainOperations).values({ id, tenantId, kind: 'mint', status, chainId: 31337, onchainAssetId: assetId, recipient: randomAddress(), amount: '1' });
  return id;
}

describe('delete', () => {
  it('409 while a reward delivers the asset; 200 once the reward no longer does', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id);
    const reward = await insertReward(tenant.id, { onchainAssetId: asset.id });
    const url = assetsPath(tenant.id, `/${asset.id}`);
    expectError(await portalCall(tenant.owner, 'DELETE', url), 409, 'CONFLICT', /1 reward\(s\) deliver it/);
    await db(tenant.id).update(rewards).set({ onchainAssetId: null }).where(eq(rewards.id, reward.id));
    expect(expectOk(await portalCall(tenant.owner, 'DELETE', url), 200, successFlagSchema)).toEqual({ success: true });
    expectError(await portalCall(tenant.owner, 'GET', url), 404, 'NOT_FOUND');
    expectError(await portalCall(tenant.owner, 'DELETE', url), 404, 'NOT_FOUND', 'Onchain asset not found');
  });

  it.each(['waiting', 'queued', 'submitted'] as const)('409 while an operation of it is %s; 200 once it is final, with its balances', async (status) => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id);
    const operationId = await insertOperation(tenant.id, asset.id, status);
    await insertOperation(tenant.id, asset.id, 'failed'); // final operations never block
    await db(tenant.id).insert(customerAssetBalances).values({
      id: newId('bal'),
      tenantId: tenant.id,
      userId: 'cus_x',
      onchainAssetId: asset.id,
      internalWalletId: 'wal_x',
      assetAddress: asset.assetAddress!,
      chainId: 31337,
      userAddress: randomAddress(),
      balance: '5',
      lastUpdatedBlock: 1,
    });
    const url = assetsPath(tenant.id, `/${asset.id}`);
    expectError(await portalCall(tenant.owner, 'DELETE', url), 409, 'CONFLICT', /1 onchain operation\(s\) of it are not settled yet/);
    expect(await db(tenant.id).select().from(customerAssetBalances).where(eq(customerAssetBalances.onchainAssetId, asset.id))).toHaveLength(1);

    await db(tenant.id).update(onchainOperations).set({ status: 'succeeded' }).where(eq(onchainOperations.id, operationId));
    expectOk(await portalCall(tenant.owner, 'DELETE', url), 200, successFlagSchema);
    expect(await db(tenant.id).select().from(onchainAssets).where(eq(onchainAssets.id, asset.id))).toEqual([]);
    expect(await db(tenant.id).select().from(customerAssetBalances).where(eq(customerAssetBalances.onchainAssetId, asset.id))).toEqual([]);
  });

  it.each(['initialized', 'pending'] as const)('409 while an XP transaction on it is %s; 200 once completed', async (status) => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id, { key: 'xp' });
    const transactionId = newId('itx');
    await db(tenant.id).insert(internalTransactions).values({ id: transactionId, tenantId: tenant.id, userId: 'cus_x', type: 'xp_earn', amount: 5, status, onchainAssetId: asset.id });
    const url = assetsPath(tenant.id, `/${asset.id}`);
    expectError(await portalCall(tenant.owner, 'DELETE', url), 409, 'CONFLICT', /1 internal transaction\(s\) on it are not settled yet/);
    await db(tenant.id).update(internalTransactions).set({ status: 'completed' }).where(eq(internalTransactions.id, transactionId));
    expectOk(await portalCall(tenant.owner, 'DELETE', url), 200, successFlagSchema);
  });
});

describe('tenants and roles', () => {
  it('404 on every route for another tenant\'s asset (on another shard and on the same one), which stays untouched', async () => {
    const owner = await createTenant();
    const asset = await insertAssetRow(owner.id, { key: 'xp' });
    for (const other of await otherTenants(owner.id)) {
      const url = assetsPath(other.id, `/${asset.id}`);
      for (const [method, path, body] of [
        ['GET', url, undefined],
        ['PATCH', url, { name: 'Stolen' }],
        ['PATCH', url, { status: 'inactive' }],
        ['DELETE', url, undefined],
        ['GET', `${url}/reconciliation`, undefined],
      ] as const) {
        expectError(await portalCall(other.owner, method, path, body), 404, 'NOT_FOUND', 'Onchain asset not found');
      }
      const list = expectOk(await portalCall(other.owner, 'GET', assetsPath(other.id)), 200, assetPage);
      expect(list.items).toEqual([]);
    }
    const [row] = await db(owner.id).select().from(onchainAssets).where(and(eq(onchainAssets.id, asset.id), eq(onchainAssets.tenantId, owner.id)));
    expect(row).toMatchObject({ name: asset.name, status: 'active' });
  });

  it('viewers and editors read everything and write nothing (403)', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id);
    const url = assetsPath(tenant.id, `/${asset.id}`);
    for (const role of ['viewer', 'editor'] as const) {
      const member = await addMember(tenant.id, role);
      expectOk(await portalCall(member, 'GET', assetsPath(tenant.id)), 200, assetPage);
      expectOk(await portalCall(member, 'GET', url), 200, onchainAssetSchema);
      expectOk(await portalCall(member, 'GET', `${url}/reconciliation`), 200, reconciliationSchema);
      const forbidden = `Your role (${role}) may not manage onchain assets in this tenant`;
      expectError(await portalCall(member, 'PATCH', url, { name: 'X' }), 403, 'FORBIDDEN', forbidden);
      expectError(await portalCall(member, 'DELETE', url), 403, 'FORBIDDEN', forbidden);
    }
    expect(expectOk(await portalCall(tenant.owner, 'GET', url), 200, onchainAssetSchema).name).toBe(asset.name);
  });
});
