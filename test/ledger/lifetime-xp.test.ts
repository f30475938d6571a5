import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lifetimeXpOfEntry } from '../../src/data/settlement-outcomes';
import { internalTransactions, transactionTypes } from '../../src/db/schema';
import { LIFETIME_XP_TYPES, lifetimeDelta } from '../../src/domain/ledger';
import { newId } from '../../src/lib/ids';
import { createCustomer } from '../support/ledger';
import { createTenant, db } from '../support/world';

/**
 * The lifetime-XP rule is stated once, in src/domain/ledger.ts: the ledger's own writes apply
 * `lifetimeDelta` in JS, and the credit of a settling onchain entry (src/data/settlement-outcomes.ts)
 * is SQL built from LIFETIME_XP_TYPES. Here the SQL, run by D1, gives what the domain gives.
 */
describe('lifetime XP: the settlement SQL is the domain rule', () => {
  it('LIFETIME_XP_TYPES: earn, bonus and adjustments; never xp_redeem (a positive one is a refund)', () => {
    expect(LIFETIME_XP_TYPES).toEqual(['xp_earn', 'xp_bonus', 'xp_admin_adjust']);
  });

  it('for every transaction type and sign, D1 computes lifetimeDelta', async () => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id);
    const entries = transactionTypes.flatMap((type) => [120, 0, -45].map((amount) => ({ id: newId('itx'), type, amount })));
    // One insert per type: a single statement would exceed D1's bound variables per query.
    for (const type of transactionTypes) {
      const ofType = entries.filter((entry) => entry.type === type);
      await db(tenant.id).insert(internalTransactions).values(ofType.map((entry) => ({ ...entry, tenantId: tenant.id, userId, status: 'pending' as const })));
    }
    const rows = await db(tenant.id)
      .select({ id: internalTransactions.id, lifetime: lifetimeXpOfEntry })
      .from(internalTransactions)
      .where(inArray(internalTransactions.id, entries.map((entry) => entry.id)));
    const computed = new Map(rows.map((row) => [row.id, Number(row.lifetime)]));
    for (const entry of entries) expect(computed.get(entry.id), `${entry.type} ${entry.amount}`).toBe(lifetimeDelta(entry.type, entry.amount));
  });
});
