import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, internalTransactions, type TransactionType } from '../db/schema';
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
