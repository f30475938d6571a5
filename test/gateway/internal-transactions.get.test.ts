import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, internalTransactions, redemptions, rewards, customers, onchainAssets, blockchainTransactions, blockchainTransactionLinks } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { revokeApiKey } from '../../src/services/api-keys';
import { expectError, expectOk } from '../support/http';
import { createTenant, createTestApiKey, db, gatewayCall, otherTenants, services } from '../support/world';

/** Seeds a transaction of `tenantId` on its shard. */
async function seedTransaction(tenantId: string, type: 'xp_earn' | 'xp_redeem' = 'xp_earn') {
  const shard = db(tenantId);
  const userId = newId('cus');
  await shard.insert(customers).values({ id: userId, tenantId, externalId: userId, status: 'active' });
  const txId = newId('itx');
  if (type === 'xp_earn') {
    await shard.insert(internalTransactions).values({ id: txId, tenantId, userId, type, amount: 150, status: 'completed', notes: 'welcome' });
    return { txId, userId };
  }
  const rewardId = newId('rwd');
  const redemptionId = newId('red');
  const assetId = newId('ast');
  const chainTxId = newId('btx');
  await shard.batch([
    shard.insert(onchainAssets).values({ id: assetId, tenantId, type: 'erc20', chainId: 31337, assetAddress: '0x0000000000000000000000000000000000000001', key: 'xp', decimals: 18 }),
    shard.insert(rewards).values({ id: rewardId, tenantId, title: 'Free coffee', xpCost: 100, status: 'active' }),
    shard.insert(redemptions).values({ id: redemptionId, tenantId, userId, rewardId, status: 'completed', xpSpent: 100 }),
    shard.insert(internalTransactions).values({ id: txId, tenantId, userId, type, amount: -100, status: 'completed', redemptionId, onchainAssetId: assetId, metadata: { source: 'test' } }),
    shard.insert(blockchainTransactions).values({ id: chainTxId, tenantId, chainId: 31337, txHash: '0xabc', txnStatus: 'succeeded' }),
    shard.insert(blockchainTransactionLinks).values({ id: newId('btl'), tenantId, internalTransactionId: txId, blockchainTransactionId: chainTxId }),
  ]);
  return { txId, userId, rewardId, assetId, chainTxId };
}

describe('GET /gateway/internal-transactions/{id}', () => {
  it('returns an earn transaction with reward null and no unlisted fields', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const { txId, userId } = await seedTransaction(tenant.id);
    const res = await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions/${txId}`);
    const data = expectOk(res, 200, internalTransactionSchema);
    expect(data).toMatchObject({ id: txId, tenant_id: tenant.id, user_id: userId, type: 'xp_earn', amount: '150', status: 'completed', reward: null, onchain_asset: null, notes: 'welcome' });
    expect(data.blockchain_transaction_links).toEqual({ blockchain_transaction: [] });
  });

  it('fills reward, onchain asset and blockchain links for a redeem transaction', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const seeded = await seedTransaction(tenant.id, 'xp_redeem');
    const res = await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions/${seeded.txId}`);
    const data = expectOk(res, 200, internalTransactionSchema);
    expect(data.reward).toEqual({ id: seeded.rewardId, title: 'Free coffee' });
    expect(data.onchain_asset?.id).toBe(seeded.assetId);
    expect(data.amount).toBe('-100');
    expect(data.metadata).toEqual({ source: 'test' });
    expect(data.blockchain_transaction_links?.blockchain_transaction?.map((t) => t.id)).toEqual([seeded.chainTxId]);
  });

  it('answers 404 for a transaction of another tenant (on another shard and on the same one)', async () => {
    const mine = await createTenant();
    const key = await createTestApiKey(mine.id);
    for (const other of await otherTenants(mine.id)) {
      const { txId } = await seedTransaction(other.id);
      const body = expectError(await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions/${txId}`), 404, 'NOT_FOUND', 'Internal transaction not found');
      expect(body.data).toBeNull();
    }
    expectError(await gatewayCall(key, 'GET', '/api/v1/gateway/internal-transactions/itx_missing'), 404, 'NOT_FOUND', 'Internal transaction not found');
  });

  it('fails the very next request after revocation, even with a warm cache', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const { txId } = await seedTransaction(tenant.id);
    const path = `/api/v1/gateway/internal-transactions/${txId}`;
    expectOk(await gatewayCall(key, 'GET', path), 200, internalTransactionSchema);
    // Revoke in D1 only, as if KV at this location had not heard of it yet.
    await db(tenant.id).update(apiKeys).set({ status: 'revoked' }).where(eq(apiKeys.id, key.id));
    expectError(await gatewayCall(key, 'GET', path), 401, 'AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired');
    // And through the service (D1 + KV):
    const key2 = await createTestApiKey(tenant.id);
    expectOk(await gatewayCall(key2, 'GET', path), 200, internalTransactionSchema);
    await revokeApiKey(services(tenant.id), key2.id, env.KV);
    expectError(await gatewayCall(key2, 'GET', path), 401, 'AUTH_INVALID_CREDENTIALS', /revoked/);
  });

  it('rejects a bad signature', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const res = await gatewayCall({ ...key, secret: 'sk_wrong' }, 'GET', '/api/v1/gateway/internal-transactions/x');
    expectError(res, 401, 'AUTH_INVALID_CREDENTIALS', 'Signature mismatch');
  });
});
