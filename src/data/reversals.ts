import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, internalTransactions, pointLotGuard, pointLots } from '../db/schema';
import { violatesCheck } from './db-errors';
import { ONE_ROW, selectedRow } from './insert-select';

/** The credit, its lot and its customer's balance, for one read batch. */
export function creditForReversalQueries(db: Database, tenantId: string, transactionId: string) {
  const credit = and(eq(internalTransactions.id, transactionId), eq(internalTransactions.tenantId, tenantId));
  return {
    credit: db.select().from(internalTransactions).where(credit),
    lot: db.select().from(pointLots).where(and(eq(pointLots.internalTransactionId, transactionId), eq(pointLots.tenantId, tenantId))),
    balance: db
      .select({ xpBalance: customers.xpBalance })
      .from(customers)
      .where(and(eq(customers.tenantId, tenantId), eq(customers.id, db.select({ id: internalTransactions.userId }).from(internalTransactions).where(credit)))),
  };
}

/**
 * Leads the batch of a pending credit's reversal: aborts it unless the lot still waits for its
 * activation (not activated, not canceled), so a reversal decided on a waiting credit never lands
 * on one the activation job completed meanwhile.
 */
export function lotStillWaitingGuard(db: Database, lotId: string) {
  const waiting = db
    .select({ one: sql`1` })
    .from(pointLots)
    .where(and(eq(pointLots.id, lotId), eq(pointLots.status, 'pending'), sql`${pointLots.activatedAt} is null`));
  return db.insert(pointLotGuard).select(db.select(selectedRow(pointLotGuard, { lotId })).from(ONE_ROW).where(notExists(waiting)));
}

/** True when a batch was aborted by `lotStillWaitingGuard`. */
export function isLotChanged(error: unknown): boolean {
  return violatesCheck(error, 'point_lot_changed');
}

/** True when concurrent reversals together went beyond the credit (the lot's checks refused the batch). */
export function isBeyondCredit(error: unknown): boolean {
  return violatesCheck(error, 'point_lot_reversed_in_amount') || violatesCheck(error, 'point_lot_remaining_in_amount');
}

/** Counts `amount` reversed on the lot; taken from `remaining` too while the lot is pending. */
export function lotReversedUpdate(db: Database, lotId: string, amount: number, fromPending: boolean, now: string) {
  return db
    .update(pointLots)
    .set({
      reversed: sql`${pointLots.reversed} + ${sql.raw(String(amount))}`,
      ...(fromPending ? { remaining: sql`${pointLots.remaining} - ${sql.raw(String(amount))}` } : {}),
      updatedAt: now,
    })
    .where(eq(pointLots.id, lotId));
}

/** A pending credit canceled whole: it fails, and its lot is `reversed` (src/db/sql/point-lots.sql). */
export function creditCanceledUpdate(db: Database, tenantId: string, transactionId: string, now: string) {
  return db
    .update(internalTransactions)
    .set({ status: 'failed', updatedAt: now })
    .where(and(eq(internalTransactions.id, transactionId), eq(internalTransactions.tenantId, tenantId), eq(internalTransactions.status, 'pending')));
}

/** A reversal of part of a pending credit: `pending`, it completes or fails with the credit. */
export function pendingReversalInsert(db: Database, row: { id: string; tenantId: string; userId: string; amount: number; creditId: string; reason: string | null; now: string }) {
  return db.insert(internalTransactions).values({
    id: row.id,
    tenantId: row.tenantId,
    userId: row.userId,
    type: 'xp_reversal',
    amount: -row.amount,
    status: 'pending',
    metadata: { reversed_transaction_id: row.creditId, requested: row.amount },
    notes: row.reason,
    createdAt: row.now,
    updatedAt: row.now,
  });
}
