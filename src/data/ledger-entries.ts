import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, internalTransactions, onchainOperations, pointLots, type TransactionType } from '../db/schema';
import { lifetimeDelta } from '../domain/ledger';
import { selectedRow } from './insert-select';
import { jsonRowTexts } from './json-rows';
import { creditLotRow, creditStatus, type LotValues } from './point-lots';
import { reusableList, type Slots } from './reusable-statements';
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

/** One entry's values as the statements read them (`e.<column>`), in driver values; a JSON row of ENTRY_COLUMNS' order. */
type EntryRow = {
  id: string;
  user_id: string;
  type: TransactionType;
  amount: number;
  lifetime_delta: number;
  /** Base units' digits before the decimals' zeros. */
  amount_digits: string;
  redemption_id: string | null;
  notes: string | null;
  /** The column's stored text (JSON), or null. */
  metadata: string | null;
  mirror_operation_id: string;
  waits_for: string | null;
  /** 1: settles onchain whether or not an XP token mirrors the ledger. */
  awaits_settlement: 0 | 1;
  /** 1 when the entry is a credit with a lot (the lot's values are null otherwise). */
  has_lot: 0 | 1;
  lot_id: string | null;
  pending: 0 | 1;
  available_at: string | null;
  expires_at: string | null;
  notice_at: string | null;
};

const ENTRY_COLUMNS: readonly (keyof EntryRow)[] = [
  'id', 'user_id', 'type', 'amount', 'lifetime_delta', 'amount_digits', 'redemption_id', 'notes', 'metadata', 'mirror_operation_id',
  'waits_for', 'awaits_settlement', 'has_lot', 'lot_id', 'pending', 'available_at', 'expires_at', 'notice_at',
];

type BatchValues = { tenantId: string; now: string; entries: string };

/**
 * The entries as a table `e`, one row per element of the bound JSON array (whatever their number:
 * one parameter), with `mirror`: the customer's XP mirror (`xpMirror`) as `[asset_id, chain_id,
 * decimals, address]`, or null when no XP token mirrors the customer. In the array's order, so
 * entries are written (and numbered) as given.
 */
function entriesTable($: Slots<BatchValues>) {
  const columns = sql.raw(ENTRY_COLUMNS.map((column, position) => `j.value ->> ${position} as ${column}`).join(', '));
  const mirror = xpMirror($.tenantId, sql.raw(`j.value ->> ${ENTRY_COLUMNS.indexOf('user_id')}`));
  return sql`(select ${columns}, (select json_array(x.asset_id, x.chain_id, x.decimals, x.address) from (${mirror}) x) as mirror
    from json_each(${$.entries}) j order by j.key) e`;
}

/** The four statements, built once (reusable-statements.ts): every branch is SQL on the entries' values. */
const entryStatements = reusableList((db, $: Slots<BatchValues>) => {
  const entries = entriesTable($);
  const settles = sql`(e.awaits_settlement = 1 or e.mirror is not null)`;
  // A pending credit waits for the activation job (services/point-jobs.ts), which mirrors it then.
  const waits = sql`(e.pending = 1 or ${settles})`;
  // Each customer's moves summed: one update of a customer whatever its number of entries. A credit
  // that waits moves the balance when it completes; a debit reserves at once.
  const moves = sql`(select e.user_id,
      sum(case when e.amount > 0 and ${waits} then 0 else e.amount end) as balance,
      sum(case when ${waits} then 0 else e.lifetime_delta end) as lifetime
    from ${entries} group by e.user_id) d`;
  return [
    // INDEXED BY: whatever the statistics, each moved customer is found by its primary key, never by
    // a scan of the tenant's customers (test/scale/hot-routes.test.ts).
    db.run(sql`update ${customers} indexed by sqlite_autoindex_customers_1
      set xp_balance = ${customers.xpBalance} + d.balance, lifetime_xp = ${customers.lifetimeXp} + d.lifetime, updated_at = ${$.now}
      from ${moves} where ${customers.id} = d.user_id and ${customers.tenantId} = ${$.tenantId}`),
    db.insert(internalTransactions).select(
      db
        .select(
          selectedRow(internalTransactions, {
            id: sql`e.id`,
            tenantId: $.tenantId,
            userId: sql`e.user_id`,
            onchainAssetId: sql`(case when e.pending = 0 then e.mirror ->> '$[0]' end)`,
            redemptionId: sql`e.redemption_id`,
            type: sql`e.type`,
            amount: sql`e.amount`,
            metadata: sql`e.metadata`,
            notes: sql`e.notes`,
            status: creditStatus(sql`e.pending`, settles),
            seq: null,
            createdAt: $.now,
            updatedAt: $.now,
          }),
        )
        .from(entries),
    ),
    // The mirror operation, only when the XP token mirrors the entry (`m`: the entry with its mirror's columns).
    db.insert(onchainOperations).select(
      db
        .select(
          xpMirrorOperationRow({
            id: sql`m.mirror_operation_id`,
            tenantId: $.tenantId,
            kind: sql`(case when m.amount > 0 then 'mint' else 'burn' end)`,
            status: sql`(case when m.waits_for is null then 'queued' else 'waiting' end)`,
            internalTransactionId: sql`m.id`,
            redemptionId: sql`m.redemption_id`,
            dependsOnOperationId: sql`m.waits_for`,
            amountDigits: sql`m.amount_digits`,
            now: $.now,
          }),
        )
        .from(
          sql`(select e.*, e.mirror ->> '$[0]' as asset_id, e.mirror ->> '$[1]' as chain_id, e.mirror ->> '$[2]' as decimals,
            e.mirror ->> '$[3]' as address from ${entries} where e.pending = 0 and e.mirror is not null) m`,
        ),
    ),
    db.insert(pointLots).select(
      db
        .select(
          creditLotRow({
            lotId: sql`e.lot_id`,
            pending: sql`e.pending`,
            availableAt: sql`e.available_at`,
            expiresAt: sql`e.expires_at`,
            noticeAt: sql`e.notice_at`,
            tenantId: $.tenantId,
            userId: sql`e.user_id`,
            now: $.now,
            transactionId: sql`e.id`,
          }),
        )
        // CROSS JOIN: the entries lead, each transaction found by its id; never the tenant's transactions scanned.
        .from(sql`${entries} cross join ${internalTransactions} t on t.id = e.id and t.tenant_id = ${$.tenantId}`)
        .where(sql`e.has_lot = 1`),
    ),
  ] as const;
});

/** An entry as its JSON row: its values in ENTRY_COLUMNS' order. */
function entryCells(entry: LedgerEntry) {
  const row = entryRow(entry);
  return ENTRY_COLUMNS.map((column) => row[column]);
}

function entryRow(entry: LedgerEntry): EntryRow {
  const { lot } = entry;
  return {
    id: entry.id,
    user_id: entry.userId,
    type: entry.type,
    amount: entry.amount,
    lifetime_delta: lifetimeDelta(entry.type, entry.amount),
    amount_digits: String(Math.abs(entry.amount)),
    redemption_id: entry.redemptionId ?? null,
    notes: entry.notes ?? null,
    // As the json-mode column stores it.
    metadata: entry.metadata == null ? null : JSON.stringify(entry.metadata),
    mirror_operation_id: entry.mirrorOperationId,
    waits_for: entry.mirrorAfterOperationId ?? null,
    awaits_settlement: entry.awaitsSettlement ? 1 : 0,
    has_lot: lot ? 1 : 0,
    lot_id: lot?.lotId ?? null,
    pending: lot?.pending ?? 0,
    available_at: lot?.availableAt ?? null,
    expires_at: lot?.expiresAt ?? null,
    notice_at: lot?.noticeAt ?? null,
  };
}

/**
 * The statements that append XP entries of one tenant and move their customers' balances with
 * them, four whatever the number of entries: the entries are one bound JSON array (data/json-rows.ts;
 * four more per 600,000 characters of it), so a chunk of an import writes a thousand credits in
 * the statements a request writes one with. Put them in the same
 * `db.batch` as anything that must happen with them (a redemption, a stock decrement): if a balance
 * would drop below zero the check constraint fails and D1 rolls the whole batch back, so no
 * interleaving of concurrent requests can overspend.
 *
 * Settlement (CONTRACT.md, XP ledger): when the tenant's XP token mirrors the ledger (an `xp` asset
 * that is deploying or active, and the customer has a wallet), decided in SQL inside the batch, an
 * entry is written `initialized` with a mint (credit) or burn (debit) operation. A debit reserves
 * the XP at once; a credit moves the balance and lifetime XP only when its settlement completes
 * (data/settlement.ts). Otherwise the entry is `completed` at once, as off-chain.
 */
export function ledgerEntriesStatements(db: Database, tenantId: string, entries: readonly LedgerEntry[], now: string) {
  if (entries.some((entry) => entry.tenantId !== tenantId)) throw new Error('ledger entries of another tenant in the batch');
  return jsonRowTexts(entries.map(entryCells)).flatMap((text) => entryStatements(db, { tenantId, now, entries: text }));
}

/**
 * The statements of one entry (`ledgerEntriesStatements` of a list of one).
 *
 * @example
 * await db.batch([...ledgerEntryStatements(db, entry, now)]).catch(rethrowLedgerError);
 */
export function ledgerEntryStatements(db: Database, entry: LedgerEntry, now: string) {
  return entryStatements(db, { tenantId: entry.tenantId, now, entries: JSON.stringify([entryCells(entry)]) });
}
