import { beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import type { Bindings } from '../../src/env';
import { fundedRelayer } from '../support/chain';
import { expectError } from '../support/http';
import { relayerEnv, settleAll } from '../support/settlement';
import { addMember, createTestApiKey, gatewayCall, otherTenants, portalCall } from '../support/world';
import { deployedAsset, earn, linkedTransactions, newCustomer, newWorld } from './fixtures';

let runEnv: Bindings;

beforeAll(async () => {
  const relayer: { privateKey: Hex } = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

describe('settled transactions across tenants', () => {
  it("another tenant (on another shard or on the same one) never sees a settled transaction or its chain links", async () => {
    const world = await newWorld('owner');
    await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    const earned = await earn(world, customer.id, 25);
    await settleAll(runEnv, world.tenant.id);
    const { links } = await linkedTransactions(world, earned.id);
    const hash = links[0]?.tx_hash;
    expect(hash).toMatch(/^0x/);

    for (const tenant of await otherTenants(world.tenant.id)) {
      const other = { tenant, key: await createTestApiKey(tenant.id) };
      const viewer = await addMember(other.tenant.id, 'viewer');
      expectError(await portalCall(viewer, 'GET', `/api/v1/tenant/${other.tenant.id}/internal-transactions/${earned.id}`), 404, 'NOT_FOUND');
      expectError(await gatewayCall(other.key, 'GET', `/api/v1/gateway/internal-transactions/${earned.id}`), 404, 'NOT_FOUND');
      // Not a member of the owning tenant: no way in through its path either.
      const denied = await portalCall(viewer, 'GET', `/api/v1/tenant/${world.tenant.id}/internal-transactions/${earned.id}`);
      expect([403, 404]).toContain(denied.status);
      expect(denied.text).not.toContain(hash ?? 'missing-hash');

      // The other tenant's lists carry nothing of this settlement.
      const lists = await Promise.all([
        portalCall(viewer, 'GET', `/api/v1/tenant/${other.tenant.id}/internal-transactions`),
        gatewayCall(other.key, 'GET', '/api/v1/gateway/internal-transactions'),
      ]);
      for (const list of lists) {
        expect(list.status).toBe(200);
        expect(list.text).not.toContain(earned.id);
        expect(list.text).not.toContain(hash ?? 'missing-hash');
      }
    }
  });
});
