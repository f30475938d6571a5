import type { Customer, OnchainAsset, Redemption, Reward, Tenant } from '../db/schema';
import type { RedemptionView } from '../schemas/redemption';
import { toTenantBrief, toUserBrief } from './briefs';

export type RedemptionDetails = {
  reward: Reward;
  /** The asset the reward delivers; undefined for an off-chain reward. */
  asset: OnchainAsset | undefined;
  customer: Pick<Customer, 'id' | 'username' | 'email'>;
  tenant: Pick<Tenant, 'id' | 'name' | 'slug'>;
};

export function toRedemptionView(redemption: Redemption, { reward, asset, customer, tenant }: RedemptionDetails): RedemptionView {
  return {
    id: redemption.id,
    reward_id: redemption.rewardId,
    tenant_id: redemption.tenantId,
    user_id: redemption.userId,
    status: redemption.status,
    xp_spent: String(redemption.xpSpent),
    created_at: redemption.createdAt,
    updated_at: redemption.updatedAt,
    reward: {
      id: reward.id,
      title: reward.title,
      description: reward.description,
      is_active: reward.status === 'active',
      status: reward.status,
      xp_cost: String(reward.xpCost),
      onchain_asset: asset
        ? {
            id: asset.id,
            ...(asset.assetAddress ? { asset_address: asset.assetAddress } : {}),
            chain_id: asset.chainId,
            decimals: asset.decimals,
            name: asset.name,
            symbol: asset.symbol,
            type: asset.type,
          }
        : null,
    },
    tenant: toTenantBrief(tenant),
    user: toUserBrief(customer),
  };
}
