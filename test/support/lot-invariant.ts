import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { shardD1 } from './world';

/**
 * The point lifecycle's invariant (CONTRACT.md, Point lifecycle; src/db/schema/points.ts), checked
 * over every customer of a tenant straight in SQL, so it holds whatever path moved the rows. Each
 * check is a query of the rows that break it: the assertion prints them.
 *
 * - balance: `xp_balance` = the active lots' remaining;
 * - pending: the pending lots' remaining = the pending credits' amounts (a pending period, or a mint
 *   under way) less their waiting (`pending`) reversals;
 * - ledger: `xp_balance` = completed entries + reserved debits (initialized or pending, but not a
 *   reversal waiting with its pending credit), and `lifetime_xp` = completed credits;
 * - lots: remaining and reversed within the amount, the status agreeing with what is left (spent and
 *   expired empty, active not), a pending lot never debited, an expired one taken by its `expired_by`;
 * - conservation: each lot's amount = remaining + what live debits took from it + what waiting
 *   reversals took from it while pending (a lot canceled whole is empty);
 * - debits: every live debit took exactly its amount from lots of its own customer (a reversal
 *   that waited with its credit took from the pending lot instead, and `unbacked` names debits
 *   older than lots), and no lot is taken by two live expiries unless points came back to it between.
 */

/** A debit whose lot_debits no longer count: it failed, or it is a redemption's spend refunded since. */
const LIVE_DEBIT = `d.status <> 'failed' AND NOT (d.type = 'xp_redeem' AND EXISTS (SELECT 1 FROM internal_transactions f
  WHERE f.tenant_id = d.tenant_id AND f.redemption_id = d.redemption_id AND f.type = 'xp_redeem' AND f.amount > 0 AND f.status = 'completed'))`;

/** A reversal that waited with its pending credit: it took from the pending lot, not through lot_debits. */
const WAITING_REVERSAL = `r.type = 'xp_reversal' AND NOT EXISTS (SELECT 1 FROM lot_debits x WHERE x.debit_transaction_id = r.id)`;

const CHECKS: Record<string, string> = {
  balance: `SELECT c.id, c.xp_balance, coalesce((SELECT sum(l.remaining) FROM point_lots l
      WHERE l.tenant_id = c.tenant_id AND l.user_id = c.id AND l.status = 'active'), 0) AS active_lots
    FROM customers c WHERE c.tenant_id = ?1 AND c.xp_balance <> active_lots`,
  pending: `SELECT c.id, lots, credits FROM (SELECT c.id,
      coalesce((SELECT sum(l.remaining) FROM point_lots l WHERE l.tenant_id = c.tenant_id AND l.user_id = c.id AND l.status = 'pending'), 0) AS lots,
      coalesce((SELECT sum(t.amount) FROM internal_transactions t WHERE t.tenant_id = c.tenant_id AND t.user_id = c.id
        AND t.amount > 0 AND t.type <> 'xp_redeem' AND t.status IN ('pending', 'initialized')), 0)
      + coalesce((SELECT sum(r.amount) FROM internal_transactions r WHERE r.tenant_id = c.tenant_id AND r.user_id = c.id
        AND r.type = 'xp_reversal' AND r.status = 'pending'), 0) AS credits
    FROM customers c WHERE c.tenant_id = ?1) c WHERE lots <> credits`,
  ledger: `SELECT c.id, c.xp_balance, c.lifetime_xp, ledger, lifetime FROM (SELECT c.*,
      coalesce((SELECT sum(t.amount) FROM internal_transactions t WHERE t.tenant_id = c.tenant_id AND t.user_id = c.id
        AND (t.status = 'completed' OR (t.amount < 0 AND t.status = 'initialized') OR (t.amount < 0 AND t.status = 'pending' AND t.type <> 'xp_reversal'))), 0) AS ledger,
      coalesce((SELECT sum(t.amount) FROM internal_transactions t WHERE t.tenant_id = c.tenant_id AND t.user_id = c.id
        AND t.status = 'completed' AND t.amount > 0 AND t.type IN ('xp_earn', 'xp_bonus', 'xp_admin_adjust')), 0) AS lifetime
    FROM customers c WHERE c.tenant_id = ?1) c WHERE c.xp_balance <> ledger OR c.lifetime_xp <> lifetime`,
  lots: `SELECT l.id, l.user_id, l.status, l.amount, l.remaining, l.reversed, l.expired_by FROM point_lots l WHERE l.tenant_id = ?1 AND NOT (
      l.remaining BETWEEN 0 AND l.amount AND l.reversed BETWEEN 0 AND l.amount AND l.amount > 0
      AND CASE l.status
        WHEN 'active' THEN l.remaining > 0
        WHEN 'pending' THEN NOT EXISTS (SELECT 1 FROM lot_debits b WHERE b.lot_id = l.id)
        WHEN 'spent' THEN l.remaining = 0
        WHEN 'reversed' THEN l.remaining = 0
        WHEN 'expired' THEN l.remaining = 0 AND EXISTS (SELECT 1 FROM lot_debits b JOIN internal_transactions e ON e.id = b.debit_transaction_id
          WHERE b.lot_id = l.id AND e.id = l.expired_by AND e.type = 'xp_expire' AND e.status <> 'failed')
        ELSE 0 END)`,
  conservation: `SELECT id, status, amount, remaining, taken, waiting FROM (SELECT l.*,
      coalesce((SELECT sum(b.amount) FROM lot_debits b JOIN internal_transactions d ON d.id = b.debit_transaction_id
        WHERE b.lot_id = l.id AND ${LIVE_DEBIT}), 0) AS taken,
      coalesce((SELECT -sum(r.amount) FROM internal_transactions r WHERE r.tenant_id = l.tenant_id AND r.user_id = l.user_id
        AND r.status <> 'failed' AND ${WAITING_REVERSAL} AND json_extract(r.metadata, '$.reversed_transaction_id') = l.internal_transaction_id), 0) AS waiting
    FROM point_lots l WHERE l.tenant_id = ?1) WHERE status <> 'reversed' AND amount <> remaining + taken + waiting`,
  debits: `SELECT d.id, d.type, d.status, d.amount, taken FROM (SELECT d.*,
      (SELECT sum(b.amount) FROM lot_debits b WHERE b.debit_transaction_id = d.id) AS taken
    FROM internal_transactions d WHERE d.tenant_id = ?1 AND d.amount < 0 AND d.user_id IS NOT NULL AND d.status <> 'failed') d
    WHERE CASE WHEN taken IS NULL THEN d.type <> 'xp_reversal' AND d.id NOT IN (SELECT value FROM json_each(?2)) ELSE taken <> -d.amount END`,
  foreign: `SELECT b.debit_transaction_id, b.lot_id FROM lot_debits b JOIN internal_transactions d ON d.id = b.debit_transaction_id
    LEFT JOIN point_lots l ON l.id = b.lot_id
    WHERE d.tenant_id = ?1 AND (l.id IS NULL OR l.user_id <> d.user_id OR l.tenant_id <> d.tenant_id OR b.amount <= 0)`,
  // A lot expires again only after a debit gave points back to it (a failed or refunded spend, docs/POINTS.md).
  expiredTwice: `SELECT b.lot_id, count(*) AS expiries FROM lot_debits b JOIN internal_transactions d ON d.id = b.debit_transaction_id
    WHERE d.tenant_id = ?1 AND d.type = 'xp_expire' AND d.status <> 'failed' GROUP BY b.lot_id HAVING count(*) > 1
      AND NOT EXISTS (SELECT 1 FROM lot_debits g JOIN internal_transactions d ON d.id = g.debit_transaction_id WHERE g.lot_id = b.lot_id AND NOT (${LIVE_DEBIT}))`,
};

export type LotInvariantOptions = {
  /** The database (default: the test database). */
  d1?: D1Database;
  /** Debits made before lots existed (the migration): they took from no lot. */
  unbacked?: string[];
};

/** The rows breaking each part of the invariant, by part (empty lists when it holds). */
export async function lotInvariantViolations(tenantId: string, options: LotInvariantOptions = {}): Promise<Record<string, unknown[]>> {
  const d1 = options.d1 ?? shardD1(tenantId);
  const unbacked = JSON.stringify(options.unbacked ?? []);
  const names = Object.keys(CHECKS);
  const statements = names.map((name) => {
    const query = CHECKS[name] ?? '';
    return query.includes('?2') ? d1.prepare(query).bind(tenantId, unbacked) : d1.prepare(query).bind(tenantId);
  });
  const results = await d1.batch(statements);
  return Object.fromEntries(names.map((name, index) => [name, results[index]?.results ?? []]));
}

/** Asserts the whole invariant for every customer of the tenant, printing the rows that break it. */
export async function expectLotInvariant(tenantId: string, options: LotInvariantOptions = {}): Promise<void> {
  const violations = await lotInvariantViolations(tenantId, options);
  const broken = Object.fromEntries(Object.entries(violations).filter(([, rows]) => rows.length > 0));
  expect(broken, `point lot invariant broken for tenant ${tenantId}`).toEqual({});
}
