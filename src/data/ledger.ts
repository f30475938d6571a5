import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customerGuard, customers, internalTransactions, onchainOperations, type CustomerStatus, type InternalTransaction } from '../db/schema';
import { violatesCheck } from './db-errors';
import { ONE_ROW, selectedRow } from './insert-select';
import { inJsonList } from './json-list';
import type { LedgerEntry } from './ledger-entries';
import { completionWhen } from './response-with-write';
import { reusable, type Slots } from './reusable-statements';

/**
 * The row `ledgerEntryStatements(db, entry, now)` writes when the entry completes at once (no XP
 * token mirrors it and it awaits no settlement), to render a response before the batch runs.
 */
export function completedEntryRow(entry: LedgerEntry, now: string): InternalTransaction {
  return {
    id: entry.id,
    tenantId: entry.tenantId,
    userId: entry.userId,
    onchainAssetId: null,
    redemptionId: entry.redemptionId ?? null,
    type: entry.type,
    amount: entry.amount,
    metadata: entry.metadata ?? null,
    notes: entry.notes ?? null,
    status: 'completed',
    seq: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The entry as written, read back in its own batch. */
export const entryReadBack = reusable((db, $: Slots<{ id: string; tenantId: string }>) =>
  db.select().from(internalTransactions).where(and(eq(internalTransactions.id, $.id), eq(internalTransactions.tenantId, $.tenantId))),
);

/** Stores a response only if the entry was written as completedEntryRow (placed after it in the same batch). */
export const storedIfWrittenAsCompleted = completionWhen((_db, $: Slots<{ entryId: string; tenantId: string }>) => {
  const t = internalTransactions;
  return sql`exists (select 1 from ${t} where ${t.id} = ${$.entryId} and ${t.tenantId} = ${$.tenantId} and ${t.status} = 'completed' and ${t.onchainAssetId} is null)`;
});

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
 * await db.batch([customerGuardStatement(db, tenantId, userId, EARNING_STATUSES), ...ledgerEntryStatements(db, entry, now)]);
 */
export function customerGuardStatement(db: Database, tenantId: string, userId: string, statuses: readonly CustomerStatus[]) {
  const key = statuses.join();
  let guard = customerGuards.get(key);
  if (!guard) customerGuards.set(key, (guard = reusableCustomerGuard(statuses)));
  return guard(db, { tenantId, userId });
}

/** One reusable guard per set of statuses (a handful of constants). */
const customerGuards = new Map<string, ReturnType<typeof reusableCustomerGuard>>();

function reusableCustomerGuard(statuses: readonly CustomerStatus[]) {
  return reusable((db, $: Slots<{ tenantId: string; userId: string }>) => {
    const eligible = db
      .select({ one: sql`1` })
      .from(customers)
      .where(and(eq(customers.id, $.userId), eq(customers.tenantId, $.tenantId), inArray(customers.status, [...statuses])));
    return db.insert(customerGuard).select(db.select(selectedRow(customerGuard, { userId: $.userId })).from(ONE_ROW).where(notExists(eligible)));
  });
}

/** True when a batch was rolled back by `customerGuardStatement` (customer missing or not eligible). */
export function isCustomerRejected(error: unknown): boolean {
  return violatesCheck(error, 'customer_not_eligible');
}

/**
 * Which of `operationIds` the tenant's XP token mirror wrote (read in the entries' batch, to hand
 * them to settlement). INDEXED BY: each id looked up by the primary key, never the tenant's
 * operations scanned (test/scale/hot-routes.test.ts, import chunks).
 */
export function mirrorOperationsQuery(db: Database, tenantId: string, operationIds: readonly string[]) {
  return db
    .select({ id: sql<string>`${onchainOperations.id}` })
    .from(sql`${onchainOperations} indexed by sqlite_autoindex_onchain_operations_1`)
    .where(and(eq(onchainOperations.tenantId, tenantId), inJsonList(onchainOperations.id, operationIds)));
}
