import { and, eq, exists, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { onchainOperations, relayerBalances, tenantGasUsage } from '../db/schema';
import { abortedByTrigger } from './db-errors';
import { namedBatch } from './named-batch';

/** What the `onchain_operations_gas_budget` trigger (src/db/sql/gas-budget.sql) aborts a batch with. */
const GAS_BUDGET_EXHAUSTED = 'onchain_gas_budget_exhausted';

/** The UTC day as SQLite sees it: the trigger and every reservation use the same clock. */
const today = sql`strftime('%Y-%m-%d', 'now')`;

/** True when a batch was refused because the tenant's daily gas budget ran out earlier today. */
export function isGasBudgetExhausted(error: unknown): boolean {
  return abortedByTrigger(error, GAS_BUDGET_EXHAUSTED);
}

/**
 * Takes `gas` from the tenant's budget for today on behalf of an operation, once: in one D1
 * transaction the day's row is made (with the budget in force), the operation takes the reservation
 * only if it has none and the gas fits, the day's total grows only by a reservation made in this very
 * batch (its fresh token), and a reservation that did not fit marks the day exhausted, which stops
 * new onchain operations of the tenant (the trigger). True when the operation holds a reservation.
 */
export async function reserveGas(db: Database, operation: { id: string; tenantId: string }, gas: bigint, budget: number): Promise<boolean> {
  const token = crypto.randomUUID();
  const amount = Number(gas);
  const day = and(eq(tenantGasUsage.tenantId, operation.tenantId), eq(tenantGasUsage.day, today));
  const usedToday = db.select({ used: tenantGasUsage.gasReserved }).from(tenantGasUsage).where(day);
  const held = (condition: SQL | undefined) =>
    db.select({ one: sql`1` }).from(onchainOperations).where(and(eq(onchainOperations.id, operation.id), condition));
  const { held: heldRows } = await namedBatch(db, {
    day: db.insert(tenantGasUsage).values({ tenantId: operation.tenantId, day: today, gasReserved: 0, budget })
      .onConflictDoUpdate({ target: [tenantGasUsage.tenantId, tenantGasUsage.day], set: { budget } }),
    reserve: db.update(onchainOperations).set({ reservedGas: amount, gasReservation: token })
      .where(and(eq(onchainOperations.id, operation.id), isNull(onchainOperations.gasReservation), sql`(${usedToday}) + ${amount} <= ${budget}`)),
    count: db.update(tenantGasUsage).set({ gasReserved: sql`${tenantGasUsage.gasReserved} + ${amount}`, updatedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` })
      .where(and(day, exists(held(eq(onchainOperations.gasReservation, token))))),
    exhaust: db.update(tenantGasUsage).set({ exhausted: true })
      .where(and(day, exists(held(isNull(onchainOperations.gasReservation))))),
    held: db.select({ reservation: onchainOperations.gasReservation }).from(onchainOperations).where(eq(onchainOperations.id, operation.id)),
  });
  const [row] = heldRows;
  return row?.reservation !== null && row?.reservation !== undefined;
}

/**
 * Lifts today's exhaustion of every tenant whose budget was smaller than `budget` (the operator
 * raised it): the next reservation is checked against the new one.
 */
export async function liftRaisedBudgets(db: Database, budget: number): Promise<number> {
  const lifted = await db.update(tenantGasUsage).set({ exhausted: false, budget })
    .where(and(eq(tenantGasUsage.day, today), eq(tenantGasUsage.exhausted, true), lt(tenantGasUsage.budget, budget)))
    .returning({ tenantId: tenantGasUsage.tenantId });
  return lifted.length;
}

/**
 * Records the relayer's balance on a chain as read now, and whether a low one is to be logged: true
 * only when it is below `minimum` and no low balance was logged for it within `quietMs` (decided in
 * the same statement, so two cron runs at once log it once).
 */
export async function recordRelayerBalance(
  db: Database,
  reading: { chainId: number; address: string; balance: bigint; minimum: bigint; now: Date; quietMs: number },
): Promise<boolean> {
  const now = reading.now.toISOString();
  const quietSince = new Date(reading.now.getTime() - reading.quietMs).toISOString();
  const low = reading.balance < reading.minimum;
  const logNow = low
    ? sql`case when ${relayerBalances.lowBalanceLoggedAt} is null or ${relayerBalances.lowBalanceLoggedAt} <= ${quietSince} then ${now} else ${relayerBalances.lowBalanceLoggedAt} end`
    : sql`${relayerBalances.lowBalanceLoggedAt}`;
  const [row] = await db.insert(relayerBalances)
    .values({ chainId: reading.chainId, address: reading.address, balance: String(reading.balance), checkedAt: now, lowBalanceLoggedAt: low ? now : null })
    .onConflictDoUpdate({ target: [relayerBalances.chainId, relayerBalances.address], set: { balance: String(reading.balance), checkedAt: now, lowBalanceLoggedAt: logNow } })
    .returning({ loggedAt: relayerBalances.lowBalanceLoggedAt });
  return low && row?.loggedAt === now;
}
