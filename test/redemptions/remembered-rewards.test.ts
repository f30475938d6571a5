import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, tenants } from '../../src/db/schema';
import { redemptionSchema } from '../../src/schemas/redemption';
import { rewardSchema } from '../../src/schemas/reward';
import { measure } from '../gateway/recorded';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { ledgerState } from '../support/ledger';
import { gatewayRequest, race } from '../support/race';
import { customerWithXp, insertReward, rewardStock } from '../support/rewards';
import { createTenant, createTestApiKey, db, gatewayCall, portalCall, type TestApiKey } from '../support/world';

/**
 * An off-chain reward this isolate checked once is remembered (data/reward-cache.ts): its next
 * redemptions are one D1 round trip, led by a guard that also confirms the reward and tenant are
 * as remembered. Every test first redeems once to make the reward remembered.
 */
const REDEEM = '/api/v1/gateway/redemptions';
const isCompletion = (sql: string) => sql.startsWith('update "idempotency_records"');
const isRememberedGuard = (sql: string) => sql.startsWith('insert into "redemption_guard"') && sql.includes('"tenants"');

const redeem = (key: TestApiKey, userId: string, rewardId: string, idempotencyKey?: string) =>
  gatewayCall(key, 'POST', REDEEM, { body: { user_id: userId, reward_id: rewardId }, idempotencyKey });

async function rememberedReward(values: Parameters<typeof insertReward>[1] = {}) {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const reward = await insertReward(tenant.id, { xpCost: 10, ...values });
  const first = await customerWithXp(tenant.id, reward.xpCost);
  expectOk(await redeem(key, first, reward.id), 201, redemptionSchema);
  return { tenant, key, reward };
}

describe('redemptions of a remembered reward', () => {
  it('take 1 D1 round trip: the claim, the remembered guard, the spend and the stored response in one batch', async () => {
    const { tenant, key, reward } = await rememberedReward();
    const userId = await customerWithXp(tenant.id, 10);
    const write = await measure(key, 'POST', REDEEM, JSON.stringify({ user_id: userId, reward_id: reward.id }));
    const view = expectOk(write.res, 201, redemptionSchema);
    expect(write.path.d1).toHaveLength(1);
    const [batch] = write.path.d1;
    expect(batch?.some(isRememberedGuard)).toBe(true);
    expect(batch?.some((sql) => sql.startsWith('insert into "idempotency_records"'))).toBe(true);
    expect(batch?.some(isCompletion)).toBe(true);
    expect(view).toMatchObject({ status: 'completed', xp_spent: '10', reward: { id: reward.id, xp_cost: '10' }, tenant: { id: tenant.id, name: tenant.name } });
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, ledgerSum: 0 });
  });

  it('store the response with the customer brief read in SQL: a replay is byte for byte the original, with "" for a missing email', async () => {
    const { tenant, key, reward } = await rememberedReward();
    const userId = await customerWithXp(tenant.id, 10, { username: 'Zoë "the" \\ fan', email: null });
    const original = await redeem(key, userId, reward.id, 'remembered-replay');
    const view = expectOk(original, 201, redemptionSchema);
    expect(view.user).toEqual({ id: userId, username: 'Zoë "the" \\ fan', email: '' });
    const replay = await redeem(key, userId, reward.id, 'remembered-replay');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.text).toBe(original.text);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, entries: 2 });
  });

  it('a repriced reward is charged at its new price (the remembered price is refused in the batch)', async () => {
    const { tenant, key, reward } = await rememberedReward();
    expectOk(await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/rewards/${reward.id}`, { xp_cost: '15' }), 200, rewardSchema);
    const userId = await customerWithXp(tenant.id, 20);
    const view = expectOk(await redeem(key, userId, reward.id), 201, redemptionSchema);
    expect(view).toMatchObject({ xp_spent: '15', reward: { xp_cost: '15' } });
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 5, ledgerSum: 5 });
  });

  it('a retitled reward and a renamed tenant show as they are now', async () => {
    const { tenant, key, reward } = await rememberedReward();
    expectOk(await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/rewards/${reward.id}`, { title: 'Retitled' }), 200, rewardSchema);
    const retitled = expectOk(await redeem(key, await customerWithXp(tenant.id, 10), reward.id), 201, redemptionSchema);
    expect(retitled.reward.title).toBe('Retitled');
    await db(tenant.id).update(tenants).set({ name: 'Renamed tenant' }).where(eq(tenants.id, tenant.id));
    const renamed = expectOk(await redeem(key, await customerWithXp(tenant.id, 10), reward.id), 201, redemptionSchema);
    expect(renamed.tenant.name).toBe('Renamed tenant');
  });

  it('refusals keep the contract\'s answers: suspended customer, archived reward, unknown customer, out of stock, too little XP', async () => {
    // One unit left after the redemption that made the reward remembered.
    const { tenant, key, reward } = await rememberedReward({ stock: 2 });
    const suspended = await customerWithXp(tenant.id, 10, { status: 'suspended' });
    expectError(await redeem(key, suspended, reward.id), 409, 'CUSTOMER_NOT_ACTIVE');
    expectError(await redeem(key, 'cus_missing', reward.id), 404, 'NOT_FOUND', 'Customer not found');
    const poor = await customerWithXp(tenant.id, 9);
    expectError(await redeem(key, poor, reward.id), 409, 'INSUFFICIENT_XP');
    expect(await ledgerState(tenant.id, poor)).toMatchObject({ balance: 9, entries: 1 });
    expectOk(await redeem(key, await customerWithXp(tenant.id, 10), reward.id), 201, redemptionSchema);
    expectError(await redeem(key, await customerWithXp(tenant.id, 10), reward.id), 409, 'OUT_OF_STOCK');
    expect(await rewardStock(tenant.id, reward.id)).toBe(0);

    const other = await rememberedReward();
    expectOk(await portalCall(other.tenant.owner, 'PATCH', `/api/v1/tenant/${other.tenant.id}/rewards/${other.reward.id}`, { status: 'archived' }), 200, rewardSchema);
    expectError(await redeem(other.key, await customerWithXp(other.tenant.id, 10), other.reward.id), 409, 'REWARD_NOT_ACTIVE');
  });

  it('a customer suspended after the reward was remembered cannot redeem, and their XP stays', async () => {
    const { tenant, key, reward } = await rememberedReward();
    const userId = await customerWithXp(tenant.id, 10);
    await db(tenant.id).update(customers).set({ status: 'suspended' }).where(eq(customers.id, userId));
    expectError(await redeem(key, userId, reward.id), 409, 'CUSTOMER_NOT_ACTIVE');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 10, entries: 1 });
  });

  it('fired at once never oversell stock or overspend XP', async () => {
    // One unit went to the redemption that made the reward remembered: 3 left.
    const { tenant, key, reward } = await rememberedReward({ stock: 4 });
    const userIds = await Promise.all(Array.from({ length: 8 }, () => customerWithXp(tenant.id, 10)));
    const requests = await Promise.all(userIds.map((userId) => gatewayRequest(key, 'POST', REDEEM, { body: { user_id: userId, reward_id: reward.id } })));
    const { responses, held } = await race(requests, /insert into "redemption_guard"/i);
    expect(held).toBe(8);
    const created = responses.filter((res: JsonResponse) => res.status === 201);
    expect(created).toHaveLength(3);
    responses.filter((res) => res.status !== 201).forEach((res) => expectError(res, 409, 'OUT_OF_STOCK'));
    expect(await rewardStock(tenant.id, reward.id)).toBe(0);

    const unlimited = await rememberedReward({ xpCost: 25 });
    const spender = await customerWithXp(unlimited.tenant.id, 50);
    const spends = await Promise.all(Array.from({ length: 6 }, () => gatewayRequest(unlimited.key, 'POST', REDEEM, { body: { user_id: spender, reward_id: unlimited.reward.id } })));
    const spent = await race(spends, /insert into "redemption_guard"/i);
    expect(spent.responses.filter((res) => res.status === 201)).toHaveLength(2);
    spent.responses.filter((res) => res.status !== 201).forEach((res) => expectError(res, 409, 'INSUFFICIENT_XP'));
    expect(await ledgerState(unlimited.tenant.id, spender)).toMatchObject({ balance: 0, ledgerSum: 0 });
  });
});
