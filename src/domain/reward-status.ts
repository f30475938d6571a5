import type { Reward } from '../db/schema';
import { ApiError } from '../lib/errors';

export type RewardStatus = Reward['status'];

/**
 * Allowed moves of a reward's status (spec and contract are silent; see docs/decisions/0019-rewards.md).
 * `draft` means "never offered": a published reward goes to `archived` and may come back to
 * `active`, but never back to draft. Keeping the same status is always allowed (a PATCH of other fields).
 */
export const rewardStatusMoves: Readonly<Record<RewardStatus, readonly RewardStatus[]>> = {
  draft: ['draft', 'active', 'archived'],
  active: ['active', 'archived'],
  archived: ['archived', 'active'],
};

/** @example assertRewardMove('active', 'draft') // 409 INVALID_STATUS_TRANSITION */
export function assertRewardMove(from: RewardStatus, to: RewardStatus): void {
  if (!rewardStatusMoves[from].includes(to)) {
    throw new ApiError('INVALID_STATUS_TRANSITION', `Reward status cannot move from ${from} to ${to}`, { path: 'status' });
  }
}
