import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onchainAssets } from '../../src/db/schema';
import { expectError } from '../support/http';
import { ledgerState } from '../support/ledger';
import { customerWithXp, insertAsset, insertReward, redeem, rewardStock } from '../support/rewards';
import { createTenant, createTestApiKey, db } from '../support/world';

/** Redemptions refused before anything is written, when the reward's onchain delivery cannot happen. */
describe('POST /gateway/redemptions: onchain delivery that cannot happen', () => {
  for (const status of ['inactive', 'failed'] as const) {
    it(`answers 409 REWARD_NOT_ACTIVE when the reward's asset is ${status}, spending nothing`, async () => {
      const tenant = await createTenant();
      const key = await createTestApiKey(tenant.id);
      const userId = await customerWithXp(tenant.id, 100);
      const assetId = await insertAsset(tenant.id);
      await db(tenant.id).update(onchainAssets).set({ status }).where(eq(onchainAssets.id, assetId));
      const reward = await insertReward(tenant.id, { onchainAssetId: assetId, stock: 3 });
      expectError(await redeem(key, userId, reward.id), 409, 'REWARD_NOT_ACTIVE', `The reward's onchain asset is ${status}; it cannot be delivered`);
      expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 100, entries: 1 });
      expect(await rewardStock(tenant.id, reward.id)).toBe(3);
    });
  }

  it('answers 409 CONFLICT naming the metadata field when an ERC-1155 reward has a non-integer amount, spending nothing', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = await customerWithXp(tenant.id, 100);
    const assetId = await insertAsset(tenant.id);
    await db(tenant.id).update(onchainAssets).set({ type: 'erc1155' }).where(eq(onchainAssets.id, assetId));
    const reward = await insertReward(tenant.id, { onchainAssetId: assetId, metadata: { token_id: 7, onchain_amount: '1.5' } });
    const body = expectError(await redeem(key, userId, reward.id), 409, 'CONFLICT', "The reward's metadata.onchain_amount must be a whole number");
    expect(body.errors).toEqual([{ path: 'reward_id', message: body.message }]);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 100, entries: 1 });
  });
});
