import { describe, expect, it } from 'vitest';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { fundedRelayer } from '../support/chain';
import { createCustomerViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { relayerEnv, settleAll } from '../support/settlement';
import { createTenant, createTestApiKey, gatewayCall, portalCall } from '../support/world';

describe('settlement smoke', () => {
  it('deploys the XP token and settles an earn', async () => {
    const relayer = await fundedRelayer();
    const runEnv = relayerEnv(relayer.privateKey);
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const created = expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/onchain-assets`, { type: 'erc20', chain_id: 31337, key: 'xp', name: 'XP', symbol: 'XP', decimals: 0 }), 201, onchainAssetSchema);
    await settleAll(runEnv, tenant.id);
    const asset = expectOk(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/onchain-assets/${created.id}`), 200, onchainAssetSchema);
    expect(asset.status).toBe('active');
    const customer = await createCustomerViaApi(key);
    const earned = expectOk(await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: '150' } }), 201, internalTransactionSchema);
    expect(earned.status).toBe('initialized');
    await settleAll(runEnv, tenant.id);
    const tx = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions/${earned.id}`), 200, internalTransactionSchema);
    expect(tx.status).toBe('completed');
    expect(tx.blockchain_transaction_links?.blockchain_transaction?.[0]?.txn_status).toBe('succeeded');
  });
});
