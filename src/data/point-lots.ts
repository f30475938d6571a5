import { and, eq, sql, type SQL } from 'drizzle-orm';
import { internalTransactions, pointLots } from '../db/schema';
import type { LotTerms } from '../domain/point-terms';
import { selectedRow, type Value } from './insert-select';

/**
 * The lot a credit writes in its own batch (CONTRACT.md, Point lifecycle; src/db/sql/point-lots.sql
 * keeps it in step afterwards). Its times come from the tenant's settings as they were when the
 * credit was made (domain/point-terms.ts), which is why TypeScript, not a trigger, writes it.
 */

/** A credit's lot times as bound to a statement: strings or null, and 1 when the credit waits. */
export type LotTimes = { pending: 0 | 1; availableAt: string; expiresAt: string | null; noticeAt: string | null };
export type LotValues = LotTimes & { lotId: string };

/** The times of a credit made at `now` under `terms`: pending while `available_at` is ahead. */
export function lotTimes(terms: LotTerms, now: string): LotTimes {
  return { pending: terms.availableAt > now ? 1 : 0, availableAt: terms.availableAt, expiresAt: terms.expiresAt, noticeAt: terms.noticeAt };
}

/**
 * The status a credit is written with: `pending` through its pending period (no balance, no mint
 * yet), then as before: `initialized` when it settles onchain, else `completed`.
 */
export function creditStatus(pending: Value, settles: SQL): SQL {
  return sql`(case when ${pending} = 1 then 'pending' when ${settles} then 'initialized' else 'completed' end)`;
}

type LotOfCredit = { [K in keyof LotValues | 'tenantId' | 'userId' | 'now']: Value } & { transactionId: Value };

/**
 * The selected row of a credit's lot over a FROM that names its just-written transaction `t`:
 * active when the transaction completed at once, else pending (its period, or its mint).
 */
export function creditLotRow(values: LotOfCredit) {
  const { lotId, pending, availableAt, expiresAt, noticeAt, tenantId, userId, now, transactionId } = values;
  return selectedRow(pointLots, {
    id: lotId,
    tenantId,
    userId,
    internalTransactionId: transactionId,
    amount: sql`t.amount`,
    remaining: sql`t.amount`,
    reversed: 0,
    status: sql`(case when t.status = 'completed' then 'active' else 'pending' end)`,
    availableAt,
    expiresAt,
    activatedAt: sql`(case when ${pending} = 1 then null else ${now} end)`,
    noticeAt,
    noticeSentAt: null,
    expiredBy: null,
    createdAt: now,
    updatedAt: now,
  });
}

/** The FROM of `creditLotRow` for one transaction of the tenant. */
export function creditOf(tenantId: Value, transactionId: Value): SQL {
  const t = internalTransactions;
  return sql`(select ${t.amount} as amount, ${t.status} as status from ${t} where ${and(eq(t.id, sql`${transactionId}`), eq(t.tenantId, sql`${tenantId}`))}) t`;
}
