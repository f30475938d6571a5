import { z } from '@hono/zod-openapi';
import { redemptionStatuses, rewardStatuses } from '../db/schema';
import { pageQuery } from '../lib/paging';
import { dateTime, resourceId, tenantBriefSchema, userBriefSchema, xpString } from './common';

/** The asset a reward delivers, as the spec's redemption shows it. */
export const redemptionAssetSchema = z
  .strictObject({
    id: z.string(),
    asset_address: z.string().optional().openapi({ description: 'Absent while the platform is still deploying the contract' }),
    chain_id: z.number().int(),
    decimals: z.number().int().nullable(),
    name: z.string().nullable(),
    symbol: z.string().nullable(),
    type: z.string(),
  })
  .openapi('RedemptionOnchainAsset');

export const redemptionRewardSchema = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    is_active: z.boolean(),
    status: z.enum(rewardStatuses),
    xp_cost: xpString,
    onchain_asset: redemptionAssetSchema.nullable().openapi({ description: 'null for an off-chain reward' }),
  })
  .openapi('RedemptionReward');

/** The spec's redemption. `xp_spent` is what was paid, even if the reward's price changed since. */
export const redemptionSchema = z
  .strictObject({
    id: z.string(),
    reward_id: z.string(),
    tenant_id: z.string(),
    user_id: z.string(),
    status: z.enum(redemptionStatuses),
    xp_spent: xpString,
    created_at: dateTime,
    updated_at: dateTime,
    reward: redemptionRewardSchema,
    tenant: tenantBriefSchema,
    user: userBriefSchema,
  })
  .openapi('Redemption');

export type RedemptionView = z.infer<typeof redemptionSchema>;

export const createRedemptionBodySchema = z
  .strictObject({
    user_id: resourceId.openapi({ description: 'The customer id (`cus_...`)' }),
    reward_id: resourceId.openapi({ example: 'rwd_7h2xyzq4r8t5v1w6y0z2a4b6c' }),
  })
  .openapi('CreateRedemptionBody');

export type CreateRedemptionInput = z.infer<typeof createRedemptionBodySchema>;

export const redemptionListQuery = pageQuery.extend({
  status: z.enum(redemptionStatuses).optional(),
  user_id: resourceId.optional(),
  reward_id: resourceId.optional(),
});

export type RedemptionListQuery = z.infer<typeof redemptionListQuery>;
