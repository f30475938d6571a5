import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { redemptions } from '../../src/db/schema';
import { redemptionSchema } from '../../src/schemas/redemption';
import { ledgerState } from '../support/ledger';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { customerWithXp, insertReward, redeem, rewardStock } from '../support/rewards';
import { createTenant, createTestApiKey, db } from '../support/world';

function outcomes(responses: JsonResponse[]) {
  const created = responses.filter((res) => res.status === 201);
  const refused = responses.filter((res) => res.status !== 201);
  created.forEach((res) => expectOk(res, 201, redemptionSchema));
  return { created, refused };
}

async function redemptionCount(tenantId: string) {
  const [row] = await db().select({ value: count() }).from(redemptions).where(and(eq(redemptions.tenantId, tenantId)));
  return row?.value;
}

describe('concurrent redemptions', () => {
  it('never overspend XP: with XP for exactly N, 5N simultaneous requests give N successes', async () => {
    const N = 4;
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const reward = await insertReward(tenant.id, { xpCost: 25 });
    const userId = await customerWithXp(tenant.id, 25 * N);

    const responses = await Promise.all(Array.from({ length: 5 * N }, () => redeem(key, userId, reward.id)));
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

    const responses = await Promise.all(userIds.map((userId) => redeem(key, userId, reward.id)));
    const { created, refused } = outcomes(responses);
    expect(created).toHaveLength(S);
    refused.forEach((res) => expectError(res, 409, 'OUT_OF_STOCK'));
    expect(await rewardStock(reward.id)).toBe(0);
    expect(await redemptionCount(tenant.id)).toBe(S);
    const states = await Promise.all(userIds.map((userId) => ledgerState(tenant.id, userId)));
    expect(states.filter((state) => state.balance === 0)).toHaveLength(S);
    states.forEach((state) => expect(state.ledgerSum).toBe(state.balance));
  });
});
