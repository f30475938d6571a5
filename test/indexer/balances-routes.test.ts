/**
 * What the indexer writes is what both balances routes serve, exactly in the spec's shape
 * (strict schema), per tenant.
 */
import { env } from 'cloudflare:test';
import { getAddress, type Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexOnchainAssets } from '../../src/jobs/asset-indexer';
import { pageSchema } from '../../src/lib/paging';
import { customerAssetBalanceSchema } from '../../src/schemas/balance';
import { fundedRelayer } from '../support/chain';
import { expectError, expectOk } from '../support/http';
import { gatewayCall, portalCall } from '../support/world';
import { deploy, registerAsset, tenantWithHolders, tokenOwner, type TenantWorld } from './fixtures';

const balancePage = pageSchema(customerAssetBalanceSchema);

let owner: Awaited<ReturnType<typeof fundedRelayer>>;

beforeAll(async () => {
  owner = await fundedRelayer();
});

async function bothSurfaces(world: TenantWorld, userId: string) {
  const viaGateway = expectOk(await gatewayCall(world.key, 'GET', `/api/v1/gateway/customers/${userId}/balances`), 200, balancePage);
  const viaPortal = expectOk(await portalCall(world.tenant.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/customers/${userId}/balances`), 200, balancePage);
  expect(viaPortal).toEqual(viaGateway);
  return viaGateway;
}

describe('balances routes serve indexed holdings', () => {
  it('lists each customer holding with its asset and wallet, on both surfaces, per tenant', async () => {
    const ours = await tenantWithHolders(2);
    const theirs = await tenantWithHolders(1);
    const [first, second] = ours.holders;
    const their = theirs.holders[0]!;
    const erc20 = await deploy('erc20', owner.privateKey, owner.address);
    const erc721 = await deploy('erc721', owner.privateKey, owner.address);
    const theirErc20 = await deploy('erc20', owner.privateKey, owner.address); // a contract belongs to one tenant
    const points = await registerAsset(ours.tenant.id, 'erc20', erc20.address);
    const badges = await registerAsset(ours.tenant.id, 'erc721', erc721.address);
    const theirPoints = await registerAsset(theirs.tenant.id, 'erc20', theirErc20.address);

    const tokens = tokenOwner(owner.privateKey);
    await tokens.mint20(erc20.address, first!.wallet.address as Address, 100n);
    await tokens.mint20(erc20.address, second!.wallet.address as Address, 5n);
    await tokens.mint20(erc20.address, their.wallet.address as Address, 9n);
    await tokens.mint20(theirErc20.address, their.wallet.address as Address, 9n);
    await tokens.mint20(theirErc20.address, first!.wallet.address as Address, 4n);
    await tokens.mint721(erc721.address, first!.wallet.address as Address);
    await tokens.mint721(erc721.address, first!.wallet.address as Address);
    await tokens.settled();
    await indexOnchainAssets(env);

    const page = await bothSurfaces(ours, first!.customer.id);
    expect(page).toMatchObject({ total_count: 3, page: 1, limit: 20, total_pages: 1, has_next_page: false });
    const held = page.items.map((item) => ({ asset: item.onchain_asset.id, token_id: item.token_id, balance: item.balance }));
    expect(held.sort((a, b) => (a.asset + a.token_id).localeCompare(b.asset + b.token_id))).toEqual(
      [
        { asset: points.id, token_id: '', balance: '100' },
        { asset: badges.id, token_id: '1', balance: '1' },
        { asset: badges.id, token_id: '2', balance: '1' },
      ].sort((a, b) => (a.asset + a.token_id).localeCompare(b.asset + b.token_id)),
    );
    for (const item of page.items) {
      expect(item).toMatchObject({
        chain_id: 31337,
        user_address: getAddress(first!.wallet.address),
        internal_wallet: { id: first!.wallet.id, address: first!.wallet.address, user_id: first!.customer.id, wallet_kind: 'custodial', deleted_at: null },
      });
      expect(item.last_updated_block).toBeGreaterThan(0);
      expect(item.asset_address).toBe(item.onchain_asset.id === points.id ? getAddress(erc20.address) : getAddress(erc721.address));
    }
    const pointsItem = page.items.find((item) => item.onchain_asset.id === points.id)!;
    // total_txns: every transfer of the contract; total_owners: this tenant's wallets that hold some.
    expect(pointsItem.onchain_asset).toMatchObject({ type: 'erc20', chain_id: 31337, total_txns: 3, total_owners: 2, status: 'active' });
    expect(page.items.find((item) => item.onchain_asset.id === badges.id)!.onchain_asset).toMatchObject({ total_txns: 2, total_owners: 1 });

    expect((await bothSurfaces(ours, second!.customer.id)).items.map((item) => item.balance)).toEqual(['5']);
    const theirPage = await bothSurfaces(theirs, their.customer.id);
    expect(theirPage.items.map((item) => ({ asset: item.onchain_asset.id, balance: item.balance }))).toEqual([{ asset: theirPoints.id, balance: '9' }]);
    expect(theirPage.items[0]!.onchain_asset).toMatchObject({ total_txns: 2, total_owners: 1 });

    // Another tenant's customer stays a 404 on both surfaces.
    expectError(await gatewayCall(ours.key, 'GET', `/api/v1/gateway/customers/${their.customer.id}/balances`), 404, 'NOT_FOUND');
    expectError(await portalCall(ours.tenant.owner, 'GET', `/api/v1/tenant/${ours.tenant.id}/customers/${their.customer.id}/balances`), 404, 'NOT_FOUND');
  });
});
