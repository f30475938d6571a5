import type { RedemptionDetails } from '../data/redemptions';
import type { Redemption } from '../db/schema';
import type { RedemptionView } from '../schemas/redemption';
import { toTenantBrief, toUserBrief } from './briefs';

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
