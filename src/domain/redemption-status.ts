import type { Redemption } from '../db/schema';
import { ApiError } from '../lib/errors';

export type RedemptionStatus = Redemption['status'];

/**
 * Allowed moves of a redemption (CONTRACT.md, Tiers and rewards: `initialized -> pending ->
 * completed | failed | canceled`). A completed one may still be canceled: off-chain rewards complete
 * at once, so cancel is how a CMS user takes one back. An `initialized` or `pending` redemption is
 * settling onchain and cannot be canceled until settlement decides it (a transaction may already be
 * on its way). failed and canceled are final, because both have already given the XP back.
 */
export const redemptionStatusMoves: Readonly<Record<RedemptionStatus, readonly RedemptionStatus[]>> = {
  initialized: ['pending', 'completed', 'failed'],
  pending: ['completed', 'failed'],
  completed: ['canceled'],
  failed: [],
  canceled: [],
};

export function canMoveRedemption(from: RedemptionStatus, to: RedemptionStatus): boolean {
  return redemptionStatusMoves[from].includes(to);
}

/** @example assertRedemptionMove('canceled', 'canceled') // 409 INVALID_STATUS_TRANSITION */
export function assertRedemptionMove(from: RedemptionStatus, to: RedemptionStatus): void {
  if (to === 'canceled' && (from === 'initialized' || from === 'pending')) {
    throw new ApiError('INVALID_STATUS_TRANSITION', `The redemption is ${from}: it is settling onchain and can be canceled once it has completed`);
  }
  if (!canMoveRedemption(from, to)) {
    throw new ApiError('INVALID_STATUS_TRANSITION', `Redemption status cannot move from ${from} to ${to}`);
  }
}

/** Statuses that gave the XP back; they are not counted as redemptions in analytics either. */
export const refundedRedemptionStatuses = ['failed', 'canceled'] as const satisfies readonly RedemptionStatus[];
