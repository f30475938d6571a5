import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { lotChunk, onchainOperations } from '../db/schema';
import { XP_MIRRORS, xpMirror, xpMirrorOperationRow } from './xp-mirror';
import { reusable, type Slots } from './reusable-statements';
import { lifetimeXpOfEntry } from './settlement-outcomes';

/**
 * The point lifecycle's jobs as D1 batches over one chunk of lots (docs/POINTS.md): activation at
 * the end of a pending period, and expiry. Each batch stages its chunk in `lot_chunk` first, works
 * on exactly those lots, and empties it; D1 runs a batch as one transaction, one at a time, and
 * every lot is staged only in the state it leaves, so concurrent runs never take a lot twice.
 * The chunk is bounded (`size`), whatever the backlog.
 */

/** Whether the XP token mirrors the customer of the row `alias`. */
const mirrored = (alias: string) => sql`exists (${xpMirror(sql.raw(`${alias}.tenant_id`), sql.raw(`${alias}.user_id`))})`;

/** The XP token's asset of the customer of the row `c`, or null. */
const MIRROR_ASSET = sql`(select asset_id from (${xpMirror(sql.raw('c.tenant_id'), sql.raw('c.user_id'))}))`;

const NEW_OPERATION_ID = sql.raw(`'op_' || lower(hex(randomblob(16)))`);

/** A job's values: its instant, and the chunk's size (cast: D1 binds JS numbers as REAL). */
type Run = { now: string; size: number };
const limit = ($: Slots<Run>) => sql`CAST(${$.size} AS INTEGER)`;

/** The mirror operations of a chunk's rows `c` (tenant_id, user_id, transaction_id, operation_id, amount) that settle. */
function mirrorOperations(db: Database, kind: 'mint' | 'burn', rows: SQL, now: string) {
  return db.insert(onchainOperations).select(
    db
      .select(
        xpMirrorOperationRow({
          id: sql`c.operation_id`,
          tenantId: sql`c.tenant_id`,
          kind,
          status: 'queued',
          internalTransactionId: sql`c.transaction_id`,
          redemptionId: null,
          dependsOnOperationId: null,
          amountDigits: sql`c.amount`,
          now,
        }),
      )
      .from(sql`${rows} c join ${XP_MIRRORS} m on m.tenant_id = c.tenant_id and m.user_id = c.user_id`),
  );
}

/** Empties the chunk; its rows say what the batch did (the lots, and the operations to enqueue). */
const emptied = (db: Database) => db.delete(lotChunk).returning({ lotId: lotChunk.lotId, operationId: lotChunk.operationId });

const stageDueActivations = reusable((db, $: Slots<Run>) =>
  db.run(sql`INSERT INTO lot_chunk (lot_id, tenant_id, user_id, transaction_id, amount, settles, operation_id)
      SELECT l.id, l.tenant_id, l.user_id, l.internal_transaction_id, l.remaining, ${mirrored('l')},
        CASE WHEN ${mirrored('l')} THEN ${NEW_OPERATION_ID} END
      FROM point_lots l JOIN internal_transactions t ON t.id = l.internal_transaction_id AND t.status = 'pending'
      WHERE l.activated_at IS NULL AND l.available_at <= ${$.now} AND l.status = 'pending'
      ORDER BY l.available_at LIMIT ${limit($)}`),
);

// The chunk's lots are found by id (here and in `expireLots`): as `UPDATE point_lots ... FROM
// lot_chunk` SQLite may scan every lot of every tenant per chunk (test/points/scale.test.ts).
const activateLots = reusable((db, $: Slots<Run>) =>
  db.run(sql`UPDATE point_lots SET activated_at = ${$.now}, updated_at = ${$.now},
        status = CASE WHEN (SELECT c.settles FROM lot_chunk c WHERE c.lot_id = point_lots.id) = 1 THEN 'pending'
          WHEN point_lots.remaining > 0 THEN 'active' ELSE 'spent' END
      WHERE point_lots.id IN (SELECT lot_id FROM lot_chunk)`),
);

const creditActivatedBalances = reusable((db, $: Slots<Run>) =>
  db.run(sql`UPDATE customers SET xp_balance = customers.xp_balance + s.amount, lifetime_xp = customers.lifetime_xp + s.lifetime, updated_at = ${$.now}
      FROM (SELECT c.user_id, sum(c.amount) AS amount, sum(${lifetimeXpOfEntry}) AS lifetime
        FROM lot_chunk c JOIN internal_transactions ON internal_transactions.id = c.transaction_id WHERE c.settles = 0 GROUP BY c.user_id) s
      WHERE customers.id = s.user_id`),
);

const completeActivatedCredits = reusable((db, $: Slots<Run>) =>
  db.run(sql`UPDATE internal_transactions SET updated_at = ${$.now},
        status = CASE WHEN c.settles = 1 THEN 'initialized' ELSE 'completed' END,
        onchain_asset_id = ${MIRROR_ASSET}
      FROM lot_chunk c WHERE internal_transactions.id = c.transaction_id AND internal_transactions.status = 'pending'`),
);

const stageDueExpiries = reusable((db, $: Slots<Run>) =>
  db.run(sql`INSERT INTO lot_chunk (lot_id, tenant_id, user_id, transaction_id, amount, settles, operation_id)
      SELECT l.id, l.tenant_id, l.user_id, NULL, l.remaining, ${mirrored('l')}, NULL
      FROM point_lots l WHERE l.status = 'active' AND l.expires_at IS NOT NULL AND l.expires_at <= ${$.now}
      ORDER BY l.expires_at LIMIT ${limit($)}`),
);

const nameExpiryTransactions = reusable((db, $: Slots<Run>) =>
  db.run(sql`UPDATE lot_chunk SET transaction_id = 'itx_' || lower(hex(randomblob(16))),
        operation_id = CASE WHEN settles = 1 THEN ${NEW_OPERATION_ID} END
      WHERE rowid IN (SELECT min(rowid) FROM lot_chunk GROUP BY user_id)`),
);

const shareExpiryTransactions = reusable((db, $: Slots<Run>) =>
  db.run(sql`UPDATE lot_chunk SET transaction_id = r.transaction_id, operation_id = r.operation_id
      FROM (SELECT user_id, transaction_id, operation_id FROM lot_chunk WHERE transaction_id IS NOT NULL) r
      WHERE lot_chunk.user_id = r.user_id AND lot_chunk.transaction_id IS NULL`),
);

const debitExpiredBalances = reusable((db, $: Slots<Run>) =>
  db.run(sql`UPDATE customers SET xp_balance = customers.xp_balance - s.amount, updated_at = ${$.now}
      FROM (SELECT user_id, sum(amount) AS amount FROM lot_chunk GROUP BY user_id) s WHERE customers.id = s.user_id`),
);

const insertExpiryTransactions = reusable((db, $: Slots<Run>) =>
  db.run(sql`INSERT INTO internal_transactions (id, tenant_id, user_id, onchain_asset_id, redemption_id, type, amount, metadata, notes, status, seq, created_at, updated_at)
      SELECT c.transaction_id, c.tenant_id, c.user_id,
        ${MIRROR_ASSET},
        NULL, 'xp_expire', -sum(c.amount), json_object('lots', count(*)), 'Points expired',
        CASE WHEN max(c.settles) = 1 THEN 'initialized' ELSE 'completed' END, NULL, ${$.now}, ${$.now}
      FROM lot_chunk c GROUP BY c.transaction_id ORDER BY min(c.rowid)`),
);

const recordExpiryDebits = reusable((db, $: Slots<Run>) =>
  db.run(sql`INSERT INTO lot_debits (debit_transaction_id, lot_id, amount) SELECT transaction_id, lot_id, amount FROM lot_chunk`),
);

const expireLots = reusable((db, $: Slots<Run>) =>
  db.run(sql`UPDATE point_lots SET status = 'expired', remaining = 0, updated_at = ${$.now},
        expired_by = (SELECT c.transaction_id FROM lot_chunk c WHERE c.lot_id = point_lots.id)
      WHERE point_lots.id IN (SELECT lot_id FROM lot_chunk)`),
);

/**
 * Activation: pending lots whose `available_at` has come. Without an XP token the credit completes
 * (balance by what the lot still holds, lifetime XP by the credit); with one it is `initialized`
 * with its mint of what the lot holds, and completes when the mint settles (data/settlement-outcomes.ts).
 * The credit's completion activates the lot and its waiting reversals (src/db/sql/point-lots.sql).
 */
export function activationBatch(db: Database, now: string, size: number) {
  const run = { now, size };
  return [
    stageDueActivations(db, run),
    activateLots(db, run),
    creditActivatedBalances(db, run),
    completeActivatedCredits(db, run),
    mirrorOperations(db, 'mint', sql`(select * from lot_chunk where settles = 1)`, now),
    emptied(db),
  ] as const;
}

/**
 * Expiry: active lots past `expires_at`, at most `size`. Per customer of the chunk one `xp_expire`
 * of what its lots still hold (negative, `completed`, or `initialized` with its burn on the XP
 * token); the lots are `expired` and remember it, and `lot_debits` records what it took, so a
 * failed burn gives the lots back (they expire again next run).
 */
export function expiryBatch(db: Database, now: string, size: number) {
  const run = { now, size };
  return [
    stageDueExpiries(db, run),
    // One transaction (and operation) id per customer: made on one row of each, copied to the others.
    nameExpiryTransactions(db, run),
    shareExpiryTransactions(db, run),
    debitExpiredBalances(db, run),
    insertExpiryTransactions(db, run),
    recordExpiryDebits(db, run),
    expireLots(db, run),
    mirrorOperations(
      db,
      'burn',
      sql`(select tenant_id, user_id, transaction_id, operation_id, sum(amount) as amount from lot_chunk where settles = 1 group by transaction_id)`,
      now,
    ),
    emptied(db),
  ] as const;
}

/**
 * Expiry notices due (`notice_at` passed), at most `size`: each lot is stamped once, and the
 * stamp's trigger sends `xp.expiring` for a lot that still holds points.
 */
export const noticeStatement = reusable((db, $: Slots<Run>) =>
  db.all<{ id: string }>(sql`UPDATE point_lots SET notice_sent_at = ${$.now}
    WHERE id IN (SELECT id FROM point_lots WHERE notice_sent_at IS NULL AND notice_at IS NOT NULL AND notice_at <= ${$.now}
      ORDER BY notice_at LIMIT ${limit($)}) RETURNING id`),
);
