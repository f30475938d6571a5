import type { Reward } from '../db/schema';
import type { RewardSummaryView, RewardView } from '../schemas/reward';

function rewardFields(reward: Reward) {
  return {
    id: reward.id,
    title: reward.title,
    description: reward.description,
    xp_cost: String(reward.xpCost),
    status: reward.status,
    is_active: reward.status === 'active',
    min_tier_id: reward.minTierId,
    onchain_asset_id: reward.onchainAssetId,
    metadata: reward.metadata ?? null,
    created_at: reward.createdAt,
    updated_at: reward.updatedAt,
  };
}

export function toRewardView(reward: Reward): RewardView {
  return { ...rewardFields(reward), stock: reward.stock };
}

/** The spec's reward as shown in top-rewards analytics. */
export function toRewardSummaryView(reward: Reward): RewardSummaryView {
  return { ...rewardFields(reward), tenant_id: reward.tenantId };
}
