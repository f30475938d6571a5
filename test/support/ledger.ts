import { and, eq, sum } from 'drizzle-orm';
import { customers, internalTransactions, type CustomerStatus } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { db } from './world';

/** A customer inserted through the data layer (customers are not the subject of ledger tests). */
export async function createCustomer(
  tenantId: string,
  options: { status?: CustomerStatus; xp?: number; username?: string | null; email?: string | null; countryCode?: string | null } = {},
) {
  const id = newId('cus');
  await db(tenantId)
    .insert(customers)
    .values({
      id,
      tenantId,
      externalId: `ext-${id}`,
      status: options.status ?? 'active',
      username: options.username === undefined ? `user-${id.slice(-6)}` : options.username,
      email: options.email === undefined ? `${id}@example.com` : options.email,
      countryCode: options.countryCode ?? null,
    });
  if (options.xp) {
    // A seeded balance is backed by a ledger entry, so "ledger sums to balance" holds from the start.
    await db(tenantId).batch([
      db(tenantId).update(customers).set({ xpBalance: options.xp, lifetimeXp: options.xp }).where(eq(customers.id, id)),
      db(tenantId).insert(internalTransactions).values({ id: newId('itx'), tenantId, userId: id, type: 'xp_earn', amount: options.xp, status: 'completed' }),
    ]);
  }
  return id;
}

/** The customer's stored balances and the sum and count of its completed ledger entries. */
export async function ledgerState(tenantId: string, userId: string) {
  const [customer] = await db(tenantId).select().from(customers).where(and(eq(customers.tenantId, tenantId), eq(customers.id, userId)));
  const entries = and(eq(internalTransactions.tenantId, tenantId), eq(internalTransactions.userId, userId), eq(internalTransactions.status, 'completed'));
  const [ledger] = await db(tenantId).select({ total: sum(internalTransactions.amount) }).from(internalTransactions).where(entries);
  const rows = await db(tenantId).select({ id: internalTransactions.id }).from(internalTransactions).where(entries);
  return { balance: customer?.xpBalance, lifetime: customer?.lifetimeXp, ledgerSum: Number(ledger?.total ?? 0), entries: rows.length };
}
