import { transactionTypes, type CustomerStatus, type TransactionType } from '../db/schema';

/**
 * Whether a type's positive amounts count toward lifetime XP: earn, bonus and (positive)
 * adjustments do; a positive `xp_redeem` is a refund of a spend, which gives balance back but is no
 * new XP. A record, so a new transaction type cannot be added without deciding.
 */
const countsTowardLifetime: Record<TransactionType, boolean> = { xp_earn: true, xp_bonus: true, xp_admin_adjust: true, xp_redeem: false, xp_expire: false, xp_reversal: false };

/**
 * The transaction types whose positive amounts make lifetime XP. The SQL that credits lifetime XP
 * when an onchain entry settles is built from this list (src/data/settlement-outcomes.ts).
 */
export const LIFETIME_XP_TYPES = transactionTypes.filter((type) => countsTowardLifetime[type]);

/**
 * XP ledger rules (CONTRACT.md, XP ledger). `xp_balance` is the sum of completed amounts and never
 * goes below zero (enforced by the `xp_balance_never_negative` check in the schema); `lifetime_xp`
 * is the sum of completed positive amounts of the LIFETIME_XP_TYPES, and decides the tier.
 */
export function lifetimeDelta(type: TransactionType, amount: number): number {
  return amount > 0 && countsTowardLifetime[type] ? amount : 0;
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
