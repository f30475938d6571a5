import {
  deleteUnredeemedReward,
  findReward,
  findRewardAndReferences,
  insertReward,
  listRewards as listRewardRows,
  updateReward as updateRewardRow,
  type RewardChanges,
} from '../data/rewards';
import { assertRewardMove } from '../domain/reward-status';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CreateRewardInput, RewardListQuery, RewardView, UpdateRewardInput } from '../schemas/reward';
import { toRewardView } from '../views/reward';
import type { ServiceContext } from './context';

const rewardNotFound = () => ApiError.notFound('Reward');

/** A tier or asset of another tenant is answered like one that does not exist, at its own field. */
function assertReferences(found: { tierFound: boolean; assetFound: boolean }): void {
  const errors = [
    ...(found.tierFound ? [] : [{ path: 'min_tier_id', message: 'No such tier in this tenant' }]),
    ...(found.assetFound ? [] : [{ path: 'onchain_asset_id', message: 'No such onchain asset in this tenant' }]),
  ];
  if (errors.length > 0) throw new ApiError('VALIDATION_FAILED', 'The request is not valid', { errors });
}

/** Portal list: newest first, optionally one status. */
export async function listRewards({ db, tenantId }: ServiceContext, query: RewardListQuery): Promise<Page<RewardView>> {
  const { rows, total } = await listRewardRows(db, tenantId, query);
  return pageOf(rows.map(toRewardView), total, query);
}

/** Gateway list: what a tenant's customers can be offered, i.e. active rewards only. */
export async function listActiveRewards(ctx: ServiceContext, params: PageParams): Promise<Page<RewardView>> {
  return listRewards(ctx, { ...params, status: 'active' });
}

export async function getReward({ db, tenantId }: ServiceContext, id: string): Promise<RewardView> {
  const reward = await findReward(db, tenantId, id);
  if (!reward) throw rewardNotFound();
  return toRewardView(reward);
}

export async function createReward({ db, tenantId }: ServiceContext, input: CreateRewardInput): Promise<RewardView> {
  assertReferences(await findRewardAndReferences(db, tenantId, { minTierId: input.min_tier_id, onchainAssetId: input.onchain_asset_id }));
  const reward = await insertReward(db, {
    id: newId('rwd'),
    tenantId,
    title: input.title,
    description: input.description ?? '',
    xpCost: input.xp_cost,
    status: input.status ?? 'draft',
    minTierId: input.min_tier_id ?? null,
    onchainAssetId: input.onchain_asset_id ?? null,
    stock: input.stock ?? null,
    metadata: input.metadata ?? null,
  });
  return toRewardView(reward);
}

/** PATCH semantics: only the fields sent change; `null` clears a nullable field (stock null = unlimited). */
export async function updateReward({ db, tenantId, now }: ServiceContext, id: string, input: UpdateRewardInput): Promise<RewardView> {
  const found = await findRewardAndReferences(db, tenantId, { rewardId: id, minTierId: input.min_tier_id, onchainAssetId: input.onchain_asset_id });
  if (!found.reward) throw rewardNotFound();
  assertReferences(found);
  if (input.status !== undefined) assertRewardMove(found.reward.status, input.status);
  const changes: RewardChanges = {
    title: input.title,
    description: input.description,
    xpCost: input.xp_cost,
    status: input.status,
    minTierId: input.min_tier_id,
    onchainAssetId: input.onchain_asset_id,
    stock: input.stock,
    metadata: input.metadata,
    updatedAt: isoNow(now()),
  };
  // A status move was checked against the status read above: it is written only if that still holds.
  const fromStatus = input.status === undefined ? undefined : found.reward.status;
  const updated = await updateRewardRow(db, tenantId, id, changes, fromStatus);
  if (!updated) {
    if (fromStatus === undefined) throw rewardNotFound();
    throw new ApiError('CONFLICT', 'The reward status was changed by another request; read it again and retry', { path: 'status' });
  }
  return toRewardView(updated);
}

/**
 * Only a reward that was never redeemed can be deleted: redemptions (and the ledger entries that
 * name them) keep pointing at their reward. A redeemed one is archived instead.
 */
export async function deleteReward({ db, tenantId }: ServiceContext, id: string): Promise<void> {
  const outcome = await deleteUnredeemedReward(db, tenantId, id);
  if (outcome === 'missing') throw rewardNotFound();
  if (outcome === 'redeemed') {
    throw new ApiError('CONFLICT', 'The reward has redemptions and cannot be deleted; archive it instead (PATCH status "archived")');
  }
}
