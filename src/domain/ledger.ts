import type { CustomerStatus, TransactionType } from '../db/schema';

/**
 * XP ledger rules (CONTRACT.md, XP ledger). `xp_balance` is the sum of completed amounts and never
 * goes below zero (enforced by the `xp_balance_never_negative` check in the schema); `lifetime_xp`
 * is the sum of completed earn, bonus and positive adjustments, and decides the tier.
 */
export function lifetimeDelta(type: TransactionType, amount: number): number {
  return amount > 0 && type !== 'xp_redeem' ? amount : 0;
}

/** Whole XP amounts as carried by the API: "150", "-20". */
export function formatXp(amount: number): string {
  return String(amount);
}

/** Statuses in which a customer may earn (and spend) XP; `pending` and `suspended` may not. */
export const EARNING_STATUSES = ['active', 'reinstated'] as const satisfies readonly CustomerStatus[];

/**
 * Largest XP amount of one transaction. Balances are read into JS numbers, so this keeps them far
 * below 2^53 (millions of maximal transactions) while never constraining a real programme.
 */
export const MAX_XP_AMOUNT = 1_000_000_000;
