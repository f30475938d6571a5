import { z } from '@hono/zod-openapi';
import { rewardStatuses } from '../db/schema';
import { MAX_XP_AMOUNT } from '../domain/ledger';
import { pageQuery } from '../lib/paging';
import { anyJson, dateTime, freeFormJson, optionalText, resourceId, trimmedText, xpAmountInput, xpString } from './common';

/** Fields the reward record and the analytics reward share. */
const rewardFields = {
  id: z.string(),
  title: z.string(),
  description: z.string(),
  xp_cost: xpString,
  status: z.enum(rewardStatuses),
  /** Derived: `status === 'active'`. */
  is_active: z.boolean(),
  min_tier_id: z.string().nullable(),
  onchain_asset_id: z.string().nullable(),
  metadata: anyJson,
  created_at: dateTime,
  updated_at: dateTime,
};

/** The reward record (CONTRACT.md, Tiers and rewards). */
export const rewardSchema = z
  .strictObject({
    ...rewardFields,
    stock: z.number().int().nullable().openapi({ description: 'Units left; null means unlimited' }),
  })
  .openapi('Reward');

/** The spec's "Reward (as in top-rewards analytics)": the record's fields plus `tenant_id`, without stock. */
export const rewardSummarySchema = z
  .strictObject({
    ...rewardFields,
    tenant_id: z.string(),
    description: rewardFields.description.optional(),
    metadata: rewardFields.metadata.optional(),
    min_tier_id: rewardFields.min_tier_id.optional(),
    created_at: rewardFields.created_at.optional(),
    updated_at: rewardFields.updated_at.optional(),
  })
  .openapi('RewardSummary');

export type RewardView = z.infer<typeof rewardSchema>;
export type RewardSummaryView = z.infer<typeof rewardSummarySchema>;

const editableFields = {
  title: trimmedText(200).openapi({ example: 'Free coffee' }),
  description: optionalText(2000, 'many'),
  /** At least 1 XP: a redemption always spends something. */
  xp_cost: xpAmountInput('positive'),
  status: z.enum(rewardStatuses),
  min_tier_id: resourceId.nullable().openapi({ description: 'A tier of the same tenant; null: no tier needed' }),
  onchain_asset_id: resourceId.nullable().openapi({ description: 'An onchain asset of the same tenant delivered on redemption' }),
  stock: z.int().min(0).max(MAX_XP_AMOUNT).nullable().openapi({ description: 'Units left; null means unlimited' }),
  metadata: freeFormJson.openapi({ example: { sku: 'COFFEE-1' } }),
};

/** New rewards start as `draft` unless a status is given; omitted references and stock are null. */
export const createRewardBodySchema = z
  .strictObject({
    ...editableFields,
    description: editableFields.description.optional(),
    status: editableFields.status.optional(),
    min_tier_id: editableFields.min_tier_id.optional(),
    onchain_asset_id: editableFields.onchain_asset_id.optional(),
    stock: editableFields.stock.optional(),
    metadata: editableFields.metadata.optional(),
  })
  .openapi('CreateRewardBody');

/** PATCH: only the fields sent change; `null` clears a nullable one. At least one field. */
export const updateRewardBodySchema = z
  .strictObject(editableFields)
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change')
  .openapi('UpdateRewardBody', { minProperties: 1 });

export type CreateRewardInput = z.infer<typeof createRewardBodySchema>;
export type UpdateRewardInput = z.infer<typeof updateRewardBodySchema>;

export const rewardListQuery = pageQuery.extend({ status: z.enum(rewardStatuses).optional() });
export type RewardListQuery = z.infer<typeof rewardListQuery>;
