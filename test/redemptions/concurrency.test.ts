import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { redemptions } from '../../src/db/schema';
import { redemptionSchema } from '../../src/schemas/redemption';
import { ledgerState } from '../support/ledger';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { gatewayRequest, race } from '../support/race';
import { customerWithXp, insertReward, rewardStock } from '../support/rewards';
import { createTenant, createTestApiKey, db, type TestApiKey } from '../support/world';

/** The redemption's write batch (it starts with the redemption guard). */
const WRITE_BATCH = /insert into "redemption_guard"/i;

const redeemRequest = (key: TestApiKey, userId: string, rewardId: string) =>
  gatewayRequest(key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: userId, reward_id: rewardId } });

function outcomes(responses: JsonResponse[]) {
  const created = responses.filter((res) => res.status === 201);
  const refused = responses.filter((res) => res.status !== 201);
  created.forEach((res) => expectOk(res, 201, redemptionSchema));
  return { created, refused };
}

async function redemptionCount(tenantId: string) {
  const [row] = await db(tenantId).select({ value: count() }).from(redemptions).where(and(eq(redemptions.tenantId, tenantId)));
  return row?.value;
}

/**
 * Every request passes the pre-checks (balance and stock read before any write), then all write
 * batches reach D1 together: only the CHECK constraints in the batch can stop the overspend.
 */
describe('concurrent redemptions', () => {
  it('never overspend XP: with XP for exactly N, 5N simultaneous requests give N successes', async () => {
    const N = 4;
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const reward = await insertReward(tenant.id, { xpCost: 25 });
    const userId = await customerWithXp(tenant.id, 25 * N);

    const { responses, held } = await race(await Promise.all(Array.from({ length: 5 * N }, () => redeemRequest(key, userId, reward.id))), WRITE_BATCH);
    // Every request saw enough XP in its pre-check and sent its write batch.
    expect(held).toBe(5 * N);
    const { created, refused } = outcomes(responses);
    expect(created).toHaveLength(N);
    expect(refused).toHaveLength(4 * N);
    refused.forEach((res) => expectError(res, 409, 'INSUFFICIENT_XP'));
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, ledgerSum: 0, lifetime: 25 * N, entries: 1 + N });
    expect(await redemptionCount(tenant.id)).toBe(N);
  });

  it('never oversell stock: with stock S and many customers, exactly S succeed', async () => {
    const S = 3;
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const reward = await insertReward(tenant.id, { xpCost: 10, stock: S });
    const userIds = await Promise.all(Array.from({ length: 4 * S }, () => customerWithXp(tenant.id, 10)));

    const { responses, held } = await race(await Promise.all(userIds.map((userId) => redeemRequest(key, userId, reward.id))), WRITE_BATCH);
    expect(held).toBe(4 * S);
    const { created, refused } = outcomes(responses);
    expect(created).toHaveLength(S);
    expect(refused).toHaveLength(3 * S);
    refused.forEach((res) => expectError(res, 409, 'OUT_OF_STOCK'));
    expect(await rewardStock(tenant.id, reward.id)).toBe(0);
    expect(await redemptionCount(tenant.id)).toBe(S);
    const states = await Promise.all(userIds.map((userId) => ledgerState(tenant.id, userId)));
    expect(states.filter((state) => state.balance === 0)).toHaveLength(S);
    states.forEach((state) => expect(state.ledgerSum).toBe(state.balance));
  });
});
