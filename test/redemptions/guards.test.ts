import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { redemptionGuardStatement } from '../../src/data/redemption-writes';
import { isAlreadyRefunded, isRedemptionRejected } from '../../src/data/redemptions';
import { ledgerEntryStatements } from '../../src/data/ledger-entries';
import { customers, rewards } from '../../src/db/schema';
import type { Database } from '../../src/db/client';
import { newId } from '../../src/lib/ids';
import { customerWithXp, insertReward, insertTier } from '../support/rewards';
import { createTenant, db, otherTenants } from '../support/world';

/**
 * The write-time guards behind the HTTP behaviour, which a test cannot reliably race through the
 * Worker: the redemption guard re-checks statuses and tier inside the write batch, and the ledger
 * takes at most one refund per redemption.
 */
describe('redemption write guards', () => {
  /** The guard's outcome on `database` (the tenant's shard unless another is given). */
  async function guardOutcome(tenantId: string, userId: string, rewardId: string, database: Database = db(tenantId)) {
    const statement = redemptionGuardStatement(database, { tenantId, redemptionId: newId('red'), userId, rewardId });
    return database.batch([statement]).then(
      () => 'allowed',
      (error: unknown) => (isRedemptionRejected(error) ? 'rejected' : error),
    );
  }

  it('passes for an eligible customer and aborts the batch once the customer, reward or tier no longer allow it', async () => {
    const tenant = await createTenant();
    const gold = await insertTier(tenant.id, 'Gold', 100);
    const userId = await customerWithXp(tenant.id, 100);
    const reward = await insertReward(tenant.id, { minTierId: gold });
    expect(await guardOutcome(tenant.id, userId, reward.id)).toBe('allowed');

    await db(tenant.id).update(rewards).set({ status: 'archived' }).where(eq(rewards.id, reward.id));
    expect(await guardOutcome(tenant.id, userId, reward.id)).toBe('rejected');
    await db(tenant.id).update(rewards).set({ status: 'active', minTierId: await insertTier(tenant.id, 'Platinum', 101) }).where(eq(rewards.id, reward.id));
    expect(await guardOutcome(tenant.id, userId, reward.id)).toBe('rejected');
    await db(tenant.id).update(rewards).set({ minTierId: null }).where(eq(rewards.id, reward.id));
    // While the customer may still redeem: on the shard holding the customer and reward, the guard itself
    // refuses another tenant's id, whether that tenant lives on another shard or on this one.
    for (const other of await otherTenants(tenant.id)) expect(await guardOutcome(other.id, userId, reward.id, db(tenant.id))).toBe('rejected');
    await db(tenant.id).update(customers).set({ status: 'suspended' }).where(eq(customers.id, userId));
    expect(await guardOutcome(tenant.id, userId, reward.id)).toBe('rejected');
  });

  it('allows one refund per redemption', async () => {
    const tenant = await createTenant();
    const userId = await customerWithXp(tenant.id, 10);
    const redemptionId = newId('red');
    const refund = () => db(tenant.id).batch([...ledgerEntryStatements(db(tenant.id), { id: newId('itx'), mirrorOperationId: newId('op'), tenantId: tenant.id, userId, type: 'xp_redeem', amount: 10, redemptionId }, new Date().toISOString())]);
    await refund();
    const error = await refund().then(() => undefined, (err: unknown) => err);
    expect(isAlreadyRefunded(error)).toBe(true);
  });
});
