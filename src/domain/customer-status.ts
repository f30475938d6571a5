import type { CustomerStatus } from '../db/schema';
import { ApiError } from '../lib/errors';

/**
 * Allowed moves of a customer's account status (CONTRACT.md, Customers). Everything else, the
 * same state included, is refused: a no-op move is reported rather than silently accepted.
 */
export const customerStatusMoves: Readonly<Record<CustomerStatus, readonly CustomerStatus[]>> = {
  pending: ['active'],
  active: ['suspended'],
  suspended: ['reinstated'],
  reinstated: ['suspended'],
};

export function canMoveCustomerStatus(from: CustomerStatus, to: CustomerStatus): boolean {
  return customerStatusMoves[from].includes(to);
}

/** @example assertCustomerStatusMove('pending', 'suspended') // 409 INVALID_STATUS_TRANSITION */
export function assertCustomerStatusMove(from: CustomerStatus, to: CustomerStatus): void {
  if (!canMoveCustomerStatus(from, to)) {
    throw new ApiError('INVALID_STATUS_TRANSITION', `Customer status cannot move from ${from} to ${to}`, { path: 'status' });
  }
}
