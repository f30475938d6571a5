/**
 * A small onchain world for the indexer tests: tenants whose customers (and custodial wallets) are
 * created through the gateway, assets registered on contracts this file deploys, and token moves
 * sent straight from the contracts' owner (no settlement involved).
 */
import { env } from 'cloudflare:test';
import { and, asc, eq } from 'drizzle-orm';
import { createWalletClient, getAddress, http, parseEther, toHex, type Address, type Hash, type Hex } from 'viem';
import { expect } from 'vitest';
import { referenceContracts } from '../../src/chain/artifacts.generated';
import { customerAssetBalances, internalWallets, onchainAssets, type InternalWallet, type OnchainAsset, type OnchainAssetType } from '../../src/db/schema';
import { custodialAccount } from '../../src/domain/wallets';
import { newId } from '../../src/lib/ids';
import type { CustomerView } from '../../src/schemas/customer';
import { anvilRpc, balanceOf, publicClientFor, testChain, walletClientFor } from '../support/chain';
import { createCustomerViaApi } from '../support/customers';
import { createTenant, createTestApiKey, db, type TestApiKey, type TestTenant } from '../support/world';

export type Holder = { customer: CustomerView; wallet: InternalWallet };
export type TenantWorld = { tenant: TestTenant; key: TestApiKey; holders: Holder[] };

/** A tenant with `count` customers created through POST /gateway/customers (real derived wallets). */
export async function tenantWithHolders(count: number): Promise<TenantWorld> {
  const tenant = await createTenant('indexer');
  const key = await createTestApiKey(tenant.id);
  const holders: Holder[] = [];
  for (let i = 0; i < count; i += 1) {
    const customer = await createCustomerViaApi(key);
    const [wallet] = await db(tenant.id).select().from(internalWallets).where(and(eq(internalWallets.tenantId, tenant.id), eq(internalWallets.userId, customer.id)));
    if (!wallet) throw new Error(`customer ${customer.id} has no custodial wallet`);
    holders.push({ customer, wallet });
  }
  return { tenant, key, holders };
}

/** An asset row as the portal would leave it (registered: active with an address). */
export async function registerAsset(
  tenantId: string,
  type: OnchainAssetType,
  assetAddress: string,
  extra: Partial<typeof onchainAssets.$inferInsert> = {},
): Promise<OnchainAsset> {
  const [row] = await db(tenantId)
    .insert(onchainAssets)
    .values({ id: newId('ast'), tenantId, type, chainId: 31337, assetAddress, decimals: type === 'erc20' ? 0 : null, name: type, symbol: type.toUpperCase(), status: 'active', ...extra })
    .returning();
  return row!;
}

export async function assetRow(tenantId: string, id: string): Promise<OnchainAsset> {
  const [row] = await db(tenantId).select().from(onchainAssets).where(eq(onchainAssets.id, id));
  return row!;
}

export async function holdingsOfAsset(tenantId: string, assetId: string) {
  return db(tenantId).select().from(customerAssetBalances).where(eq(customerAssetBalances.onchainAssetId, assetId)).orderBy(asc(customerAssetBalances.userAddress), asc(customerAssetBalances.tokenId));
}

/** Deploys a reference contract from `ownerKey` (also its owner) and returns its address and deploy hash. */
export async function deploy(type: OnchainAssetType, ownerKey: Hex, owner: Address): Promise<{ address: Address; hash: Hash }> {
  const wallet = walletClientFor(31337, ownerKey);
  const hash =
    type === 'erc20'
      ? await wallet.deployContract({ ...referenceContracts.erc20, args: ['Indexed Points', 'IXP', 0, owner] })
      : type === 'erc721'
        ? await wallet.deployContract({ ...referenceContracts.erc721, args: ['Indexed Badge', 'IXB', owner] })
        : await wallet.deployContract({ ...referenceContracts.erc1155, args: ['https://loyalty.test/{id}.json', owner] });
  const receipt = await publicClientFor(31337).waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error(`deploy of ${type} failed`);
  return { address: receipt.contractAddress, hash };
}

/** Sends owner-only token calls one after another (one account, one nonce sequence). */
export function tokenOwner(ownerKey: Hex) {
  const wallet = walletClientFor(31337, ownerKey);
  let last: Hash | undefined;
  return {
    async mint20(asset: Address, to: Address, amount: bigint) {
      last = await wallet.writeContract({ address: asset, abi: referenceContracts.erc20.abi, functionName: 'mint', args: [to, amount] });
    },
    async burn20(asset: Address, from: Address, amount: bigint) {
      last = await wallet.writeContract({ address: asset, abi: referenceContracts.erc20.abi, functionName: 'burn', args: [from, amount] });
    },
    async mint721(asset: Address, to: Address) {
      last = await wallet.writeContract({ address: asset, abi: referenceContracts.erc721.abi, functionName: 'mint', args: [to] });
    },
    async mint1155(asset: Address, to: Address, id: bigint, amount: bigint) {
      last = await wallet.writeContract({ address: asset, abi: referenceContracts.erc1155.abi, functionName: 'mint', args: [to, id, amount] });
    },
    /** Waits until the last call is mined (automine: it is, but its receipt may lag the send). */
    async settled() {
      if (last) await publicClientFor(31337).waitForTransactionReceipt({ hash: last });
    },
  };
}

/** Signs as a customer's custodial wallet (given gas), as a customer moving their own tokens would. */
export async function custodialSigner(wallet: InternalWallet) {
  const account = await custodialAccount(env.WALLET_MNEMONIC!, wallet.derivationIndex);
  await anvilRpc(31337, 'anvil_setBalance', [account.address, toHex(parseEther('10'))]);
  return createWalletClient({ account, chain: testChain(31337), transport: http() });
}

/** What the chain says the given wallets hold (non-zero only), in the shape of indexed rows. */
async function chainHoldings(type: OnchainAssetType, asset: Address, holders: readonly Holder[], tokenIds: readonly string[]) {
  const expected: { userAddress: string; tokenId: string; balance: string }[] = [];
  for (const { wallet } of holders) {
    for (const tokenId of tokenIds) {
      const amount = await balanceOf(31337, type, asset, wallet.address as Address, tokenId === '' ? undefined : BigInt(tokenId));
      if (amount > 0n) expected.push({ userAddress: getAddress(wallet.address), tokenId, balance: amount.toString() });
    }
  }
  return expected.sort((a, b) => a.userAddress.localeCompare(b.userAddress) || a.tokenId.localeCompare(b.tokenId));
}

/** Indexed rows of the asset == the chain's view of `holders`, rows name the right wallet, counters match. */
export async function expectIndexedAsChain(asset: OnchainAsset, holders: readonly Holder[], tokenIds: readonly string[], totalTxns: number) {
  const expected = await chainHoldings(asset.type, asset.assetAddress as Address, holders, tokenIds);
  const rows = await holdingsOfAsset(asset.tenantId, asset.id);
  const actual = rows.map((row) => ({ userAddress: row.userAddress, tokenId: row.tokenId, balance: row.balance }));
  expect(actual.sort((a, b) => a.userAddress.localeCompare(b.userAddress) || a.tokenId.localeCompare(b.tokenId))).toEqual(expected);
  for (const row of rows) {
    const holder = holders.find(({ wallet }) => wallet.address.toLowerCase() === row.userAddress.toLowerCase());
    expect(row).toMatchObject({ tenantId: asset.tenantId, userId: holder?.customer.id, internalWalletId: holder?.wallet.id, chainId: 31337 });
    expect(row.assetAddress).toBe(getAddress(asset.assetAddress!));
    expect(row.lastUpdatedBlock).toBeGreaterThan(0);
  }
  const after = await assetRow(asset.tenantId, asset.id);
  expect(after.totalTxns).toBe(totalTxns);
  expect(after.totalOwners).toBe(new Set(expected.map((holding) => holding.userAddress)).size);
  return after;
}
