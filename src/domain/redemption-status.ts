import type { Redemption } from '../db/schema';
import { ApiError } from '../lib/errors';

export type RedemptionStatus = Redemption['status'];

/**
 * Allowed moves of a redemption (CONTRACT.md, Tiers and rewards: `initialized -> pending ->
 * completed | failed | canceled`). A completed one may still be canceled: off-chain rewards complete
 * at once, so cancel is how a CMS user takes one back. failed and canceled are final, because
 * both have already given the XP back.
 */
export const redemptionStatusMoves: Readonly<Record<RedemptionStatus, readonly RedemptionStatus[]>> = {
  initialized: ['pending', 'completed', 'failed', 'canceled'],
  pending: ['completed', 'failed', 'canceled'],
  completed: ['canceled'],
  failed: [],
  canceled: [],
};

export function canMoveRedemption(from: RedemptionStatus, to: RedemptionStatus): boolean {
  return redemptionStatusMoves[from].includes(to);
}

/** @example assertRedemptionMove('canceled', 'canceled') // 409 INVALID_STATUS_TRANSITION */
export function assertRedemptionMove(from: RedemptionStatus, to: RedemptionStatus): void {
  if (!canMoveRedemption(from, to)) {
    throw new ApiError('INVALID_STATUS_TRANSITION', `Redemption status cannot move from ${from} to ${to}`);
  }
}

/** Statuses that gave the XP back; they are not counted as redemptions in analytics either. */
export const refundedRedemptionStatuses = ['failed', 'canceled'] as const satisfies readonly RedemptionStatus[];
