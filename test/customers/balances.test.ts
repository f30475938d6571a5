import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerAssetBalances, internalWallets, onchainAssets } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { customerAssetBalanceSchema } from '../../src/schemas/balance';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { createTenant, createTestApiKey, db, gatewayCall, otherTenants, portalCall, type TestApiKey, type TestTenant } from '../support/world';

const balancePage = pageSchema(customerAssetBalanceSchema);

type Surface = { name: string; get: (tenant: TestTenant, key: TestApiKey, path: string) => Promise<JsonResponse> };

const surfaces: Surface[] = [
  { name: 'gateway', get: (_tenant, key, path) => gatewayCall(key, 'GET', `/api/v1/gateway/customers/${path}`) },
  { name: 'portal', get: (tenant, _key, path) => portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/customers/${path}`) },
];

/** What the onchain indexer will write: a registered asset and the customer's holding of it. */
async function seedHolding(tenantId: string, userId: string, symbol: string, balance: string) {
  const [wallet] = await db(tenantId).select().from(internalWallets).where(and(eq(internalWallets.tenantId, tenantId), eq(internalWallets.userId, userId)));
  const assetId = newId('ast');
  const assetAddress = `0x${crypto.getRandomValues(new Uint8Array(20)).reduce((hex, byte) => hex + byte.toString(16).padStart(2, '0'), '')}`;
  await db(tenantId).batch([
    db(tenantId).insert(onchainAssets).values({ id: assetId, tenantId, type: 'erc20', chainId: 31337, assetAddress, decimals: 18, name: symbol, symbol, key: symbol.toLowerCase() }),
    db(tenantId).insert(customerAssetBalances).values({
      id: newId('bal'),
      tenantId,
      userId,
      onchainAssetId: assetId,
      internalWalletId: wallet!.id,
      assetAddress,
      chainId: 31337,
      userAddress: wallet!.address,
      balance,
      lastUpdatedBlock: 42,
    }),
  ]);
  return { assetId, wallet: wallet! };
}

/** `given`: a tenant to set up (one of `otherTenants`), else a new one. */
async function world(given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  const key = await createTestApiKey(tenant.id);
  const customer = await createCustomerViaApi(key);
  return { tenant, key, customer };
}

describe.each(surfaces)('GET customers/{userId}/balances ($name)', ({ get }) => {
  it('is an empty page until something is indexed', async () => {
    const { tenant, key, customer } = await world();
    const page = expectOk(await get(tenant, key, `${customer.id}/balances`), 200, balancePage);
    expect(page).toEqual({ items: [], total_count: 0, page: 1, limit: 20, total_pages: 0, has_next_page: false });
  });

  it("lists the customer's holdings with their asset and custodial wallet", async () => {
    const { tenant, key, customer } = await world();
    const { assetId, wallet } = await seedHolding(tenant.id, customer.id, 'PTS', '1500000000000000000000000');
    const page = expectOk(await get(tenant, key, `${customer.id}/balances`), 200, balancePage);
    expect(page.total_count).toBe(1);
    const [item] = page.items;
    expect(item).toMatchObject({
      balance: '1500000000000000000000000',
      chain_id: 31337,
      user_address: wallet.address,
      token_id: '',
      last_updated_block: 42,
      onchain_asset: { id: assetId, symbol: 'PTS', decimals: 18, type: 'erc20' },
      internal_wallet: { id: wallet.id, address: wallet.address, user_id: customer.id, wallet_kind: 'custodial', deleted_at: null },
    });
  });

  it('pages (limit, page, has_next_page) and rejects limit=0/101 and page=0', async () => {
    const { tenant, key, customer } = await world();
    for (const symbol of ['AAA', 'BBB', 'CCC']) await seedHolding(tenant.id, customer.id, symbol, '1');
    const first = expectOk(await get(tenant, key, `${customer.id}/balances?limit=2`), 200, balancePage);
    expect(first).toMatchObject({ total_count: 3, page: 1, limit: 2, total_pages: 2, has_next_page: true });
    expect(first.items).toHaveLength(2);
    const second = expectOk(await get(tenant, key, `${customer.id}/balances?limit=2&page=2`), 200, balancePage);
    expect(second.items).toHaveLength(1);
    expect(new Set([...first.items, ...second.items].map((item) => item.onchain_asset.symbol))).toEqual(new Set(['AAA', 'BBB', 'CCC']));
    for (const query of ['limit=0', 'limit=101', 'page=0']) {
      expectError(await get(tenant, key, `${customer.id}/balances?${query}`), 422, 'VALIDATION_FAILED');
    }
  });

  it("answers 404 for an unknown customer and for another tenant's customer (on another shard and on the same one)", async () => {
    const mine = await world();
    expectError(await get(mine.tenant, mine.key, 'cus_missing/balances'), 404, 'NOT_FOUND', 'Customer not found');
    for (const other of await otherTenants(mine.tenant.id)) {
      const theirs = await world(other);
      await seedHolding(theirs.tenant.id, theirs.customer.id, 'PTS', '5');
      expectError(await get(mine.tenant, mine.key, `${theirs.customer.id}/balances`), 404, 'NOT_FOUND', 'Customer not found');
    }
  });
});
