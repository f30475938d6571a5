/**
 * Reconciliation numbers from rows inserted directly (ledger entries, operations, indexed balances):
 * the settlement and indexer that write them in production are tested by their own files.
 */
import { describe, expect, it } from 'vitest';
import {
  customerAssetBalances,
  internalTransactions,
  internalWallets,
  onchainOperations,
  type OnchainAsset,
  type OnchainOperationStatus,
  type TransactionStatus,
} from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { reconciliationSchema } from '../../src/schemas/onchain-asset';
import { expectOk } from '../support/http';
import { createCustomer } from '../support/ledger';
import { createTenant, db, otherTenants, portalCall, type TestTenant } from '../support/world';
import { randomAddress } from '../support/rewards';
import { assetsPath, insertAssetRow } from './helpers';

let derivationIndex = 900_000;

/** A customer with a custodial wallet; returns its id and wallet address. */
async function customerWithWallet(tenantId: string) {
  const userId = await createCustomer(tenantId);
  const address = randomAddress();
  const walletId = newId('wal');
  await db(tenantId).insert(internalWallets).values({ id: walletId, tenantId, userId, address, label: 'custodial', derivationIndex: derivationIndex++ });
  return { userId, address, walletId };
}

type Customer = Awaited<ReturnType<typeof customerWithWallet>>;

async function ledgerEntry(asset: OnchainAsset | null, tenantId: string, userId: string, amount: number, status: TransactionStatus = 'completed') {
  await db(tenantId)
    .insert(internalTransactions)
    .values({ id: newId('itx'), tenantId, userId, type: amount < 0 ? 'xp_redeem' : 'xp_earn', amount, status, onchainAssetId: asset?.id ?? null });
}

async function balance(asset: OnchainAsset, customer: Customer, amount: string, tokenId = '') {
  await db(asset.tenantId).insert(customerAssetBalances).values({
    id: newId('bal'),
    tenantId: asset.tenantId,
    userId: customer.userId,
    onchainAssetId: asset.id,
    internalWalletId: customer.walletId,
    assetAddress: asset.assetAddress!,
    chainId: asset.chainId,
    userAddress: customer.address,
    tokenId,
    balance: amount,
    lastUpdatedBlock: 40,
  });
}

async function operation(asset: OnchainAsset, recipient: string, kind: 'mint' | 'burn', amount: string | null, status: OnchainOperationStatus = 'succeeded') {
  await db(asset.tenantId)
    .insert(onchainOperations)
    .values({ id: newId('op'), tenantId: asset.tenantId, kind, status, chainId: asset.chainId, onchainAssetId: asset.id, recipient, amount });
}

const reconcile = async (tenant: TestTenant, asset: OnchainAsset) =>
  expectOk(await portalCall(tenant.owner, 'GET', assetsPath(tenant.id, `/${asset.id}/reconciliation`)), 200, reconciliationSchema);

const E18 = 10n ** 18n;

describe('XP token', () => {
  it('compares completed XP x 10^decimals with indexed balances, listing only the customers that differ', async () => {
    const tenant = await createTenant();
    const xp = await insertAssetRow(tenant.id, { key: 'xp', decimals: 18, lastIndexedBlock: 40 });
    const [agrees, short, unknownToLedger] = [await customerWithWallet(tenant.id), await customerWithWallet(tenant.id), await customerWithWallet(tenant.id)];

    // agrees: 100 + 50 - 30 = 120 XP settled; pending, initialized and failed entries do not count.
    await ledgerEntry(xp, tenant.id, agrees.userId, 100);
    await ledgerEntry(xp, tenant.id, agrees.userId, 50);
    await ledgerEntry(xp, tenant.id, agrees.userId, -30);
    await ledgerEntry(xp, tenant.id, agrees.userId, 999, 'pending');
    await ledgerEntry(xp, tenant.id, agrees.userId, -7, 'initialized');
    await ledgerEntry(null, tenant.id, agrees.userId, 1000, 'failed');
    await balance(xp, agrees, (120n * E18).toString()); // > 2^53: summed exactly
    // short: 10 XP settled, only 7 indexed.
    await ledgerEntry(xp, tenant.id, short.userId, 10);
    await balance(xp, short, (7n * E18).toString());
    // unknownToLedger: tokens onchain the ledger never settled.
    await balance(xp, unknownToLedger, '5');
    // Other tenants' rows never count, on another shard or on the tenant's (there only the reconciliation's tenant filter keeps them out).
    for (const other of await otherTenants(tenant.id)) await ledgerEntry(xp, other.id, await createCustomer(other.id), 77);

    const result = await reconcile(tenant, xp);
    expect(result).toEqual({
      asset_id: xp.id,
      key: 'xp',
      decimals: 18,
      ledger_total: (130n * E18).toString(),
      onchain_total: (127n * E18 + 5n).toString(),
      difference: (-3n * E18 + 5n).toString(),
      last_indexed_block: 40,
      // No contract at a random address: the supply is what the indexer saw minted (nothing, here).
      total_supply: '0',
      supply_source: 'indexed_transfers',
      supply_difference: (-130n * E18).toString(),
      customers: expect.arrayContaining([
        { user_id: short.userId, wallet_address: short.address, ledger_balance: (10n * E18).toString(), onchain_balance: (7n * E18).toString(), difference: (-3n * E18).toString() },
        { user_id: unknownToLedger.userId, wallet_address: unknownToLedger.address, ledger_balance: '0', onchain_balance: '5', difference: '5' },
      ]),
    });
    expect(result.customers).toHaveLength(2);
  });

  it('is all zeros with no customer listed when ledger and chain agree', async () => {
    const tenant = await createTenant();
    const xp = await insertAssetRow(tenant.id, { key: 'xp', decimals: 0 });
    expect(await reconcile(tenant, xp)).toEqual({
      asset_id: xp.id, key: 'xp', decimals: 0, ledger_total: '0', onchain_total: '0', difference: '0', last_indexed_block: null,
      total_supply: null, supply_source: 'indexed_transfers', supply_difference: null, customers: [],
    });
    const customer = await customerWithWallet(tenant.id);
    await ledgerEntry(xp, tenant.id, customer.userId, 42);
    await balance(xp, customer, '42');
    expect(await reconcile(tenant, xp)).toMatchObject({ ledger_total: '42', onchain_total: '42', difference: '0', customers: [] });
  });

  it('counts XP earned before the token: until the opening mints it, the chain is short of it', async () => {
    const tenant = await createTenant();
    const xp = await insertAssetRow(tenant.id, { key: 'xp', decimals: 0, lastIndexedBlock: 40 });
    const late = await customerWithWallet(tenant.id);
    await ledgerEntry(null, tenant.id, late.userId, 300); // before the token: on no asset
    await ledgerEntry(xp, tenant.id, late.userId, 50);
    await balance(xp, late, '50');
    expect(await reconcile(tenant, xp)).toMatchObject({
      ledger_total: '350', onchain_total: '50', difference: '-300',
      customers: [{ user_id: late.userId, wallet_address: late.address, ledger_balance: '350', onchain_balance: '50', difference: '-300' }],
    });
  });

  it('shows a customer without a wallet with wallet_address null', async () => {
    const tenant = await createTenant();
    const xp = await insertAssetRow(tenant.id, { key: 'xp', decimals: 2 });
    const userId = await createCustomer(tenant.id);
    await ledgerEntry(xp, tenant.id, userId, 3);
    expect((await reconcile(tenant, xp)).customers).toEqual([{ user_id: userId, wallet_address: null, ledger_balance: '300', onchain_balance: '0', difference: '-300' }]);
  });
});

describe('other assets', () => {
  it('erc1155: succeeded mints minus succeeded burns per wallet against balances over every token id', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id, { type: 'erc1155', key: 'tickets', decimals: 0, lastIndexedBlock: 12 });
    const [holder, missing] = [await customerWithWallet(tenant.id), await customerWithWallet(tenant.id)];
    await operation(asset, holder.address, 'mint', '5');
    await operation(asset, holder.address, 'mint', '7');
    await operation(asset, holder.address, 'burn', '2');
    await operation(asset, holder.address, 'mint', '100', 'queued');
    await operation(asset, holder.address, 'mint', '100', 'failed');
    await balance(asset, holder, '4', '1');
    await balance(asset, holder, '6', '2');
    await operation(asset, missing.address, 'mint', '3');
    const stranger = randomAddress();
    await operation(asset, stranger, 'mint', '9007199254740993'); // 2^53 + 1: exact

    const result = await reconcile(tenant, asset);
    expect(result).toMatchObject({ key: 'tickets', decimals: 0, ledger_total: '9007199254741006', onchain_total: '10', difference: '-9007199254740996', last_indexed_block: 12 });
    // Not indexed: an erc1155's supply is only ever the indexer's count of mints minus burns.
    expect(result).toMatchObject({ total_supply: '0', supply_source: 'indexed_transfers', supply_difference: '-9007199254741006' });
    expect(result.customers).toEqual(
      expect.arrayContaining([
        { user_id: missing.userId, wallet_address: missing.address, ledger_balance: '3', onchain_balance: '0', difference: '-3' },
        { user_id: null, wallet_address: stranger, ledger_balance: '9007199254740993', onchain_balance: '0', difference: '-9007199254740993' },
      ]),
    );
    expect(result.customers).toHaveLength(2);
  });

  it('erc721: a mint without an amount is one token', async () => {
    const tenant = await createTenant();
    const asset = await insertAssetRow(tenant.id, { type: 'erc721', key: 'badge', decimals: 0 });
    const holder = await customerWithWallet(tenant.id);
    await operation(asset, holder.address, 'mint', null);
    await operation(asset, holder.address, 'mint', null);
    await balance(asset, holder, '1', '1');
    await balance(asset, holder, '1', '2');
    expect(await reconcile(tenant, asset)).toMatchObject({ ledger_total: '2', onchain_total: '2', difference: '0', customers: [] });
  });
});
