import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id, tenantId } from './columns';

export const pointLotStatuses = ['pending', 'active', 'spent', 'expired', 'reversed'] as const;

/**
 * The point lifecycle (CONTRACT.md, Point lifecycle; docs/POINTS.md): every credit is a lot that
 * waits until `available_at`, is spent by debits earliest `expires_at` first, and expires. Triggers
 * (src/db/sql/point-lots.sql) keep lots in step with the ledger: a debit takes from active lots in
 * its own statement, a failed debit or a refund gives back what it took, a credit's transaction
 * completing activates its lot. The invariant, for every customer at every moment:
 * `xp_balance` = sum of active lots' `remaining`, `pending_xp` = sum of pending lots' `remaining`.
 */
export const pointLots = sqliteTable(
  'point_lots',
  {
    id: id(),
    tenantId: tenantId(),
    userId: text('user_id').notNull(),
    /** The credit; null only for a lot made from a balance (the migration, a refund of a debit older than lots). */
    internalTransactionId: text('internal_transaction_id'),
    amount: integer('amount').notNull(),
    remaining: integer('remaining').notNull(),
    /** Taken back by reversals (returns): never more than `amount` in total. */
    reversed: integer('reversed').notNull().default(0),
    status: text('status', { enum: pointLotStatuses }).notNull(),
    availableAt: text('available_at').notNull(),
    expiresAt: text('expires_at'),
    /** Null while the activation job still has to complete the lot's credit (a pending period). */
    activatedAt: text('activated_at'),
    /** When `xp.expiring` is due (`expires_at` minus the notice), null without one. */
    noticeAt: text('notice_at'),
    /** When `xp.expiring` was sent (once per lot). */
    noticeSentAt: text('notice_sent_at'),
    /** The `xp_expire` transaction that took it. */
    expiredBy: text('expired_by'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    // Debits: the customer's active lots, earliest expiry first (lots without expiry last).
    index('point_lots_spend_order').on(t.userId, t.status, sql`${t.expiresAt} IS NULL`, t.expiresAt, t.createdAt),
    index('point_lots_tenant_user_created').on(t.tenantId, t.userId, t.createdAt),
    index('point_lots_credit').on(t.internalTransactionId),
    index('point_lots_activation_due').on(t.availableAt).where(sql`${t.activatedAt} IS NULL`),
    index('point_lots_expiry_due').on(t.expiresAt).where(sql`${t.status} = 'active' AND ${t.expiresAt} IS NOT NULL`),
    index('point_lots_notice_due').on(t.noticeAt).where(sql`${t.noticeSentAt} IS NULL AND ${t.noticeAt} IS NOT NULL`),
    check('point_lot_remaining_in_amount', sql`${t.remaining} >= 0 AND ${t.remaining} <= ${t.amount}`),
    check('point_lot_reversed_in_amount', sql`${t.reversed} >= 0 AND ${t.reversed} <= ${t.amount}`),
  ],
);

/** What each debit took from which lot, so a failed debit or a refund gives back exactly that. */
export const lotDebits = sqliteTable(
  'lot_debits',
  {
    debitTransactionId: text('debit_transaction_id').notNull(),
    lotId: text('lot_id').notNull(),
    amount: integer('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.debitTransactionId, t.lotId] }), index('lot_debits_lot').on(t.lotId)],
);

/**
 * Never holds a row after its statement: inserting one gives back to the lots what a debit took
 * (`lot_debits`), and the rest, if asked, as a new lot without expiry; its trigger does the work
 * and deletes it (src/db/sql/point-lots.sql). One rule for failed debits and redemption refunds.
 */
export const lotGivebacks = sqliteTable('lot_givebacks', {
  debitTransactionId: text('debit_transaction_id').notNull(),
  tenantId: text('tenant_id').notNull(),
  userId: text('user_id').notNull(),
  amount: integer('amount').notNull(),
  at: text('at').notNull(),
  /** 1: what the debit took from before lots existed comes back as a new lot. */
  restAsLot: integer('rest_as_lot').notNull(),
});

/**
 * Never holds a row between batches: the activation and expiry jobs stage the lots of one chunk here
 * at the start of their batch and empty it at the end, so every statement of the batch works on the
 * same lots (D1 runs a batch as one transaction, so two runs never see each other's rows).
 */
export const lotChunk = sqliteTable('lot_chunk', {
  lotId: text('lot_id').primaryKey(),
  tenantId: text('tenant_id').notNull(),
  userId: text('user_id').notNull(),
  transactionId: text('transaction_id'),
  amount: integer('amount').notNull(),
  /** 1 when the tenant's XP token mirrors this customer's entries (a mint or burn follows). */
  settles: integer('settles').notNull(),
  operationId: text('operation_id'),
});

/**
 * Never holds a row (like customer_guard): a reversal's batch starts with an insert here when the
 * credit's lot is no longer in the state the reversal was decided on, so a concurrent activation,
 * expiry or reversal aborts it whole and it is decided again (services/reversals.ts).
 */
export const pointLotGuard = sqliteTable('point_lot_guard', { lotId: text('lot_id').notNull() }, () => [check('point_lot_changed', sql`0`)]);

export type PointLot = typeof pointLots.$inferSelect;
export type PointLotStatus = (typeof pointLotStatuses)[number];
