/**
 * Shared fixtures of the settlement tests: a tenant with an XP token on a test anvil, customers with
 * real custodial wallets, and read helpers for both API surfaces and the settlement tables.
 */
import { and, asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Address, Hex } from 'viem';
import { blockchainTransactions, internalWallets, onchainOperations } from '../../src/db/schema';
import { customerSchema, type CustomerView } from '../../src/schemas/customer';
import { internalTransactionSchema, onchainAssetSchema, type BlockchainTransactionView, type InternalTransactionView, type OnchainAssetView } from '../../src/schemas/internal-transaction';
import { redemptionSchema, type RedemptionView } from '../../src/schemas/redemption';
import { rewardSchema, type RewardView } from '../../src/schemas/reward';
import { deployReference, type ReferenceType, type TestChainId } from '../support/chain';
import { createCustomerViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { settleAll } from '../support/settlement';
import type { Bindings } from '../../src/env';
import { createTenant, createTestApiKey, db, gatewayCall, portalCall, type TestApiKey, type TestTenant } from '../support/world';

export type World = { tenant: TestTenant; key: TestApiKey };

export async function newWorld(label = 'settle'): Promise<World> {
  const tenant = await createTenant(label);
  return { tenant, key: await createTestApiKey(tenant.id) };
}

type AssetBody = { type: ReferenceType; key?: string; decimals?: number; asset_address?: string; chain_id?: TestChainId; name?: string; symbol?: string };

/** POST /tenant/{t}/onchain-assets (deploy without asset_address, register with it). */
export async function createAsset(world: World, body: AssetBody): Promise<OnchainAssetView> {
  const { chain_id = 31337, name = 'Asset', symbol = 'AST', ...rest } = body;
  const decimals = body.type === 'erc20' ? (body.decimals ?? 0) : undefined;
  const res = await portalCall(world.tenant.owner, 'POST', `/api/v1/tenant/${world.tenant.id}/onchain-assets`, { ...rest, chain_id, name, symbol, decimals });
  return expectOk(res, 201, onchainAssetSchema);
}

export async function getAsset(world: World, id: string): Promise<OnchainAssetView> {
  return expectOk(await portalCall(world.tenant.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/onchain-assets/${id}`), 200, onchainAssetSchema);
}

/** Deploys an asset through the platform and settles the deploy; returns the active asset. */
export async function deployedAsset(world: World, runEnv: Bindings, body: AssetBody): Promise<OnchainAssetView & { asset_address: Address }> {
  const created = await createAsset(world, body);
  await settleAll(runEnv, world.tenant.id);
  const asset = await getAsset(world, created.id ?? '');
  expect(asset.status).toBe('active');
  expect(asset.asset_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  return asset as OnchainAssetView & { asset_address: Address };
}

/** Registers a reference contract deployed outside the platform, owned by `owner`. */
export async function registeredAsset(world: World, type: ReferenceType, options: { owner: Address; deployerKey: Hex; key?: string; decimals?: number; chainId?: TestChainId }) {
  const address = await deployReference(type, { owner: options.owner, deployerKey: options.deployerKey, chainId: options.chainId, decimals: options.decimals });
  const asset = await createAsset(world, { type, key: options.key, decimals: options.decimals, asset_address: address, chain_id: options.chainId });
  expect(asset.status).toBe('active');
  return { asset, address };
}

export type Customer = CustomerView & { wallet: Address };

export async function walletOf(tenantId: string, userId: string): Promise<Address> {
  const [row] = await db(tenantId).select({ address: internalWallets.address }).from(internalWallets).where(eq(internalWallets.userId, userId));
  if (!row) throw new Error(`customer ${userId} has no wallet`);
  return row.address as Address;
}

/** A customer created through the gateway (so it has a real custodial wallet). */
export async function newCustomer(world: World): Promise<Customer> {
  const customer = await createCustomerViaApi(world.key);
  return { ...customer, wallet: await walletOf(world.tenant.id, customer.id) };
}

export async function getCustomer(world: World, userId: string): Promise<CustomerView> {
  return expectOk(await gatewayCall(world.key, 'GET', `/api/v1/gateway/customers/${userId}`), 200, customerSchema);
}

export async function earn(world: World, userId: string, amount: number): Promise<InternalTransactionView> {
  const res = await gatewayCall(world.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: userId, type: 'xp_earn', amount: String(amount) } });
  return expectOk(res, 201, internalTransactionSchema);
}

export async function adjust(world: World, userId: string, amount: number): Promise<InternalTransactionView> {
  const res = await portalCall(world.tenant.owner, 'POST', `/api/v1/tenant/${world.tenant.id}/customers/${userId}/xp-adjustments`, { amount: String(amount), notes: 'test adjustment' });
  return expectOk(res, 201, internalTransactionSchema);
}

export async function gatewayTransaction(world: World, id: string): Promise<InternalTransactionView> {
  return expectOk(await gatewayCall(world.key, 'GET', `/api/v1/gateway/internal-transactions/${id}`), 200, internalTransactionSchema);
}

export async function portalTransaction(world: World, id: string): Promise<InternalTransactionView> {
  return expectOk(await portalCall(world.tenant.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/internal-transactions/${id}`), 200, internalTransactionSchema);
}

/** The blockchain transactions of an internal transaction, read on both surfaces (they must agree). */
export async function linkedTransactions(world: World, id: string) {
  const [gateway, portal] = await Promise.all([gatewayTransaction(world, id), portalTransaction(world, id)]);
  expect(portal.blockchain_transaction_links).toEqual(gateway.blockchain_transaction_links);
  expect(portal.status).toBe(gateway.status);
  return { transaction: gateway, links: gateway.blockchain_transaction_links?.blockchain_transaction ?? [] };
}

/** Asserts a succeeded (or reverted) attempt carries its receipt, sent from `relayer`. */
export function expectReceipt(row: BlockchainTransactionView | undefined, relayer: Address, status: 1 | 0) {
  if (!row) throw new Error('no blockchain transaction linked');
  expect(row.txn_status).toBe(status === 1 ? 'succeeded' : 'failed');
  expect(row.receipt_status).toBe(status);
  expect(row.receipt_block_number).toMatch(/^[1-9][0-9]*$/);
  expect(row.receipt_block_hash).toMatch(/^0x[0-9a-f]{64}$/i);
  expect(row.tx_hash).toMatch(/^0x[0-9a-f]{64}$/i);
  expect(typeof row.tx_nonce).toBe('number');
  expect(row.tx_from?.toLowerCase()).toBe(relayer.toLowerCase());
}

export async function createReward(world: World, body: { xp_cost: number; onchain_asset_id?: string; stock?: number; metadata?: Record<string, unknown> }): Promise<RewardView> {
  const res = await portalCall(world.tenant.owner, 'POST', `/api/v1/tenant/${world.tenant.id}/rewards`, { title: 'Onchain reward', status: 'active', ...body, xp_cost: String(body.xp_cost) });
  return expectOk(res, 201, rewardSchema);
}

export async function getReward(world: World, id: string): Promise<RewardView> {
  return expectOk(await portalCall(world.tenant.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/rewards/${id}`), 200, rewardSchema);
}

export async function redeem(world: World, userId: string, rewardId: string): Promise<RedemptionView> {
  const res = await gatewayCall(world.key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: userId, reward_id: rewardId } });
  return expectOk(res, 201, redemptionSchema);
}

export async function getRedemption(world: World, id: string): Promise<RedemptionView> {
  return expectOk(await gatewayCall(world.key, 'GET', `/api/v1/gateway/redemptions/${id}`), 200, redemptionSchema);
}

/** Operations of an internal transaction (oldest first). */
export async function operationsOf(tenantId: string, internalTransactionId: string) {
  return db(tenantId).select().from(onchainOperations).where(eq(onchainOperations.internalTransactionId, internalTransactionId)).orderBy(asc(onchainOperations.createdAt));
}

/** Signed attempts of an operation, oldest first. */
export async function attemptsOf(tenantId: string, operationId: string) {
  return db(tenantId).select().from(blockchainTransactions).where(and(eq(blockchainTransactions.operationId, operationId))).orderBy(asc(blockchainTransactions.attempt));
}
