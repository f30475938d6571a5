import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, internalTransactions, pointLotGuard, pointLots, type PointLot } from '../db/schema';
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
 * Leads a reversal's batch: aborts it unless the lot is still as read (status, remaining,
 * reversed and activation), so the reversal decided on that state is the one written.
 */
export function lotUnchangedGuard(db: Database, lot: PointLot) {
  const unchanged = db
    .select({ one: sql`1` })
    .from(pointLots)
    .where(
      and(
        eq(pointLots.id, lot.id),
        eq(pointLots.status, lot.status),
        eq(pointLots.remaining, lot.remaining),
        eq(pointLots.reversed, lot.reversed),
        lot.activatedAt === null ? sql`${pointLots.activatedAt} is null` : sql`${pointLots.activatedAt} is not null`,
      ),
    );
  return db.insert(pointLotGuard).select(db.select(selectedRow(pointLotGuard, { lotId: lot.id })).from(ONE_ROW).where(notExists(unchanged)));
}

/** True when a batch was aborted by `lotUnchangedGuard`. */
export function isLotChanged(error: unknown): boolean {
  return violatesCheck(error, 'point_lot_changed');
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
