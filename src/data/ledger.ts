import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customerGuard, customers, internalTransactions, type CustomerStatus, type TransactionType } from '../db/schema';
import { violatesCheck } from './db-errors';
import { lifetimeDelta } from '../domain/ledger';
import { isoNow } from '../lib/time';

export type LedgerEntry = {
  id: string;
  tenantId: string;
  userId: string;
  type: TransactionType;
  amount: number;
  redemptionId?: string | null;
  onchainAssetId?: string | null;
  notes?: string | null;
  metadata?: unknown;
};

/**
 * The two statements that append one completed XP entry and move the customer's balance with it.
 * Put them in the same `db.batch` as anything that must happen with them (a redemption, a stock
 * decrement): if the balance would drop below zero the check constraint fails and D1 rolls the
 * whole batch back, so no interleaving of concurrent requests can overspend.
 *
 * @example
 * await db.batch([...ledgerEntryStatements(db, entry)]).catch(rethrowLedgerError);
 */
export function ledgerEntryStatements(db: Database, entry: LedgerEntry) {
  const now = isoNow();
  return [
    db
      .update(customers)
      .set({
        xpBalance: sql`${customers.xpBalance} + ${entry.amount}`,
        lifetimeXp: sql`${customers.lifetimeXp} + ${lifetimeDelta(entry.type, entry.amount)}`,
        updatedAt: now,
      })
      .where(and(eq(customers.id, entry.userId), eq(customers.tenantId, entry.tenantId))),
    db.insert(internalTransactions).values({
      id: entry.id,
      tenantId: entry.tenantId,
      userId: entry.userId,
      type: entry.type,
      amount: entry.amount,
      status: 'completed',
      redemptionId: entry.redemptionId ?? null,
      onchainAssetId: entry.onchainAssetId ?? null,
      notes: entry.notes ?? null,
      metadata: entry.metadata ?? null,
      createdAt: now,
      updatedAt: now,
    }),
  ] as const;
}

/** True when a batch was rolled back because a balance would have gone below zero. */
export function isInsufficientXp(error: unknown): boolean {
  return violatesCheck(error, 'xp_balance_never_negative');
}

/**
 * A statement that aborts the whole batch it leads unless the customer belongs to the tenant and has
 * one of `statuses` at that moment (the check runs in the batch's own D1 transaction, so a status
 * change cannot slip between the check and the write). `isCustomerRejected` recognises the abort.
 *
 * @example
 * await db.batch([customerGuardStatement(db, tenantId, userId, EARNING_STATUSES), ...ledgerEntryStatements(db, entry)]);
 */
export function customerGuardStatement(db: Database, tenantId: string, userId: string, statuses: readonly CustomerStatus[]) {
  const eligible = db
    .select({ one: sql`1` })
    .from(customers)
    .where(and(eq(customers.id, userId), eq(customers.tenantId, tenantId), inArray(customers.status, [...statuses])));
  return db.insert(customerGuard).select(sql`select ${userId} where ${notExists(eligible)}`);
}

/** True when a batch was rolled back by `customerGuardStatement` (customer missing or not eligible). */
export function isCustomerRejected(error: unknown): boolean {
  return violatesCheck(error, 'customer_not_eligible');
}
