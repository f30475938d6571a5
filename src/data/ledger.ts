import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { inJsonList } from './json-list';
import {
  customerGuard,
  customers,
  internalTransactions,
  onchainOperations,
  pointLots,
  type CustomerStatus,
  type InternalTransaction,
  type TransactionType,
} from '../db/schema';
import { violatesCheck } from './db-errors';
import { ONE_ROW, selectedRow } from './insert-select';
import { completionWhen } from './response-with-write';
import { reusable, reusableList, type Slots } from './reusable-statements';
import { lifetimeDelta } from '../domain/ledger';
import { creditLotRow, creditOf, creditStatus, type LotValues } from './point-lots';
import { xpMirror, xpMirrorOperationRow } from './xp-mirror';

export type LedgerEntry = {
  id: string;
  tenantId: string;
  userId: string;
  type: TransactionType;
  amount: number;
  redemptionId?: string | null;
  notes?: string | null;
  metadata?: unknown;
  /** Id of the operation that mirrors the entry onto the tenant's XP token, when it has one. */
  mirrorOperationId: string;
  /** The mirror waits for this operation (a reward is delivered before its XP is burned). */
  mirrorAfterOperationId?: string;
  /** Settles onchain even without an XP token: a redemption that delivers an onchain reward. */
  awaitsSettlement?: boolean;
  /** A credit's lot (data/point-lots.ts): every earn, bonus and positive adjustment has one. */
  lot?: LotValues;
};

type EntryValues = {
  id: string;
  tenantId: string;
  userId: string;
  type: TransactionType;
  amount: number;
  lifetimeDelta: number;
  /** Base units' digits before the decimals' zeros. */
  amountDigits: string;
  redemptionId: string | null;
  notes: string | null;
  metadata: unknown;
  mirrorOperationId: string;
  waitsFor: string | null;
  /** 1: settles onchain whether or not an XP token mirrors the ledger. */
  awaitsSettlement: 0 | 1;
  now: string;
  /** 1 when the entry is a credit with a lot (the lot's values are unused otherwise). */
  hasLot: 0 | 1;
} & LotValues;

/** The three statements, built once (reusable-statements.ts): every branch is SQL on the values. */
const entryStatements = reusableList((db, $: Slots<EntryValues>) => {
  const mirror = xpMirror($.tenantId, $.userId);
  const settles = sql`(${$.awaitsSettlement} = 1 or exists (${mirror}))`;
  // A pending credit waits for the activation job (services/point-jobs.ts), which mirrors it then.
  const waits = sql`(${$.pending} = 1 or ${settles})`;
  return [
    db
      .update(customers)
      .set({
        // A credit that waits moves the balance when it completes; a debit reserves at once.
        xpBalance: sql`${customers.xpBalance} + (case when ${$.amount} > 0 and ${waits} then 0 else ${$.amount} end)`,
        lifetimeXp: sql`${customers.lifetimeXp} + (case when ${waits} then 0 else ${$.lifetimeDelta} end)`,
        updatedAt: sql`${$.now}`,
      })
      .where(and(eq(customers.id, $.userId), eq(customers.tenantId, $.tenantId))),
    db.insert(internalTransactions).values({
      id: $.id,
      tenantId: $.tenantId,
      userId: $.userId,
      type: $.type,
      amount: $.amount,
      status: creditStatus($.pending, settles),
      redemptionId: $.redemptionId,
      onchainAssetId: sql`(case when ${$.pending} = 0 then (select asset_id from (${mirror})) end)`,
      notes: $.notes,
      metadata: $.metadata,
      createdAt: $.now,
      updatedAt: $.now,
    }),
    // The mirror operation, only when the XP token mirrors the entry (`mirror` finds its asset and the customer's wallet).
    db.insert(onchainOperations).select(
      db
        .select(
          xpMirrorOperationRow({
            id: $.mirrorOperationId,
            tenantId: $.tenantId,
            kind: sql`(case when ${$.amount} > 0 then 'mint' else 'burn' end)`,
            status: sql`(case when ${$.waitsFor} is null then 'queued' else 'waiting' end)`,
            internalTransactionId: $.id,
            redemptionId: $.redemptionId,
            dependsOnOperationId: $.waitsFor,
            amountDigits: $.amountDigits,
            now: $.now,
          }),
        )
        .from(sql`(${mirror}) m`)
        .where(sql`${$.pending} = 0`),
    ),
    db.insert(pointLots).select(
      db
        .select(creditLotRow({ ...lotSlots($), tenantId: $.tenantId, userId: $.userId, now: $.now, transactionId: $.id }))
        .from(creditOf($.tenantId, $.id))
        .where(sql`${$.hasLot} = 1`),
    ),
  ] as const;
});

const lotSlots = ($: Slots<EntryValues>) => ({ lotId: $.lotId, pending: $.pending, availableAt: $.availableAt, expiresAt: $.expiresAt, noticeAt: $.noticeAt });

/** The lot values of an entry without a lot: bound, never read. */
const NO_LOT: LotValues = { lotId: '', pending: 0, availableAt: '', expiresAt: null, noticeAt: null };

/**
 * The statements that append one XP entry and move the customer's balance with it. Put them in the
 * same `db.batch` as anything that must happen with them (a redemption, a stock decrement): if the
 * balance would drop below zero the check constraint fails and D1 rolls the whole batch back, so no
 * interleaving of concurrent requests can overspend.
 *
 * Settlement (CONTRACT.md, XP ledger): when the tenant's XP token mirrors the ledger (an `xp` asset
 * that is deploying or active, and the customer has a wallet), decided in SQL inside the batch, the
 * entry is written `initialized` with a mint (credit) or burn (debit) operation. A debit reserves
 * the XP at once; a credit moves the balance and lifetime XP only when its settlement completes
 * (data/settlement.ts). Otherwise the entry is `completed` at once, as off-chain.
 *
 * @example
 * await db.batch([...ledgerEntryStatements(db, entry, now)]).catch(rethrowLedgerError);
 */
export function ledgerEntryStatements(db: Database, entry: LedgerEntry, now: string) {
  return entryStatements(db, {
    id: entry.id,
    tenantId: entry.tenantId,
    userId: entry.userId,
    type: entry.type,
    amount: entry.amount,
    lifetimeDelta: lifetimeDelta(entry.type, entry.amount),
    amountDigits: String(Math.abs(entry.amount)),
    redemptionId: entry.redemptionId ?? null,
    notes: entry.notes ?? null,
    metadata: entry.metadata ?? null,
    mirrorOperationId: entry.mirrorOperationId,
    waitsFor: entry.mirrorAfterOperationId ?? null,
    awaitsSettlement: entry.awaitsSettlement ? 1 : 0,
    now,
    hasLot: entry.lot ? 1 : 0,
    ...(entry.lot ?? NO_LOT),
  });
}

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

/** Which of `operationIds` the tenant's XP token mirror wrote (read in the entries' batch, to hand them to settlement). */
export function mirrorOperationsQuery(db: Database, tenantId: string, operationIds: readonly string[]) {
  return db
    .select({ id: onchainOperations.id })
    .from(onchainOperations)
    .where(and(eq(onchainOperations.tenantId, tenantId), inJsonList(onchainOperations.id, operationIds)));
}
