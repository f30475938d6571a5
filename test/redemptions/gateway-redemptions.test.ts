import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, internalTransactions, redemptions } from '../../src/db/schema';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { z } from '@hono/zod-openapi';
import { successFlagSchema } from '../../src/lib/envelope';
import { redemptionSchema } from '../../src/schemas/redemption';
import { rewardSchema } from '../../src/schemas/reward';
import { createCustomer, ledgerState } from '../support/ledger';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { gatewayRequest, portalRequest, race } from '../support/race';
import { customerWithXp, insertAsset, insertReward, insertTier, randomAddress, redeem, rewardStock } from '../support/rewards';
import { createTenant, createTestApiKey, db, gatewayCall, otherTenants, type TestTenant } from '../support/world';

async function world() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  return { tenant, key };
}

describe('POST /gateway/redemptions', () => {
  it('redeems an off-chain reward: 201 completed, XP spent through the ledger, stock taken, lifetime kept', async () => {
    const { tenant, key } = await world();
    const userId = await customerWithXp(tenant.id, 300);
    const reward = await insertReward(tenant.id, { title: 'Free coffee', description: 'One cup', xpCost: 120, stock: 2 });

    const res = await redeem(key, userId, reward.id);
    const redemption = expectOk(res, 201, redemptionSchema);
    expect(redemption).toMatchObject({
      reward_id: reward.id,
      tenant_id: tenant.id,
      user_id: userId,
      status: 'completed',
      xp_spent: '120',
      reward: { id: reward.id, title: 'Free coffee', description: 'One cup', is_active: true, status: 'active', xp_cost: '120', onchain_asset: null },
      tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug },
      user: { id: userId },
    });
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 180, lifetime: 300, ledgerSum: 180, entries: 2 });
    expect(await rewardStock(tenant.id, reward.id)).toBe(1);

    const [entry] = await db(tenant.id)
      .select()
      .from(internalTransactions)
      .where(and(eq(internalTransactions.tenantId, tenant.id), eq(internalTransactions.redemptionId, redemption.id)));
    expect(entry).toMatchObject({ type: 'xp_redeem', amount: -120, status: 'completed', userId });
    const tx = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions/${entry!.id}`), 200, internalTransactionSchema);
    expect(tx.reward).toEqual({ id: reward.id, title: 'Free coffee' });
  });

  it('shows the delivered asset and leaves an onchain reward initialized for settlement', async () => {
    const { tenant, key } = await world();
    const userId = await customerWithXp(tenant.id, 100);
    const address = randomAddress();
    const assetId = await insertAsset(tenant.id, address);
    const reward = await insertReward(tenant.id, { onchainAssetId: assetId });
    const redemption = expectOk(await redeem(key, userId, reward.id), 201, redemptionSchema);
    expect(redemption.status).toBe('initialized');
    expect(redemption.reward.onchain_asset).toEqual({
      id: assetId,
      asset_address: address,
      chain_id: 31337,
      decimals: 0,
      name: 'Badge',
      symbol: 'BDG',
      type: 'erc721',
    });
  });

  it('fills the user brief with "" when the customer has no username or email', async () => {
    const { tenant, key } = await world();
    const userId = await customerWithXp(tenant.id, 100, { username: null, email: null });
    const reward = await insertReward(tenant.id);
    const redemption = expectOk(await redeem(key, userId, reward.id), 201, redemptionSchema);
    expect(redemption.user).toEqual({ id: userId, username: '', email: '' });
  });

  it('lets a reinstated customer redeem', async () => {
    const { tenant, key } = await world();
    const userId = await customerWithXp(tenant.id, 100, { status: 'reinstated' });
    const reward = await insertReward(tenant.id);
    expectOk(await redeem(key, userId, reward.id), 201, redemptionSchema);
  });

  it('uses lifetime XP (not balance) for the tier: a customer who spent down still qualifies', async () => {
    const { tenant, key } = await world();
    const gold = await insertTier(tenant.id, 'Gold', 500);
    const userId = await customerWithXp(tenant.id, 600);
    const cheap = await insertReward(tenant.id, { xpCost: 450 });
    const goldOnly = await insertReward(tenant.id, { xpCost: 100, minTierId: gold });
    expectOk(await redeem(key, userId, cheap.id), 201, redemptionSchema);
    expectOk(await redeem(key, userId, goldOnly.id), 201, redemptionSchema);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 50, lifetime: 600, ledgerSum: 50 });
  });

  describe('named errors, each a 409 with its own code, checked in order', () => {
    it('CUSTOMER_NOT_ACTIVE for a suspended or pending customer, even with no XP', async () => {
      const { tenant, key } = await world();
      const reward = await insertReward(tenant.id, { stock: 0 });
      for (const status of ['suspended', 'pending'] as const) {
        const userId = await createCustomer(tenant.id, { status });
        const body = expectError(await redeem(key, userId, reward.id), 409, 'CUSTOMER_NOT_ACTIVE', `The customer is ${status}; only active or reinstated customers can redeem`);
        expect(body.errors).toEqual([{ path: 'user_id', message: body.message }]);
      }
    });

    it('REWARD_NOT_ACTIVE for a draft or archived reward, before stock, tier and balance', async () => {
      const { tenant, key } = await world();
      const gold = await insertTier(tenant.id, 'Gold', 1000);
      const userId = await createCustomer(tenant.id);
      for (const status of ['draft', 'archived'] as const) {
        const reward = await insertReward(tenant.id, { status, stock: 0, minTierId: gold });
        expectError(await redeem(key, userId, reward.id), 409, 'REWARD_NOT_ACTIVE', `The reward is ${status}; only active rewards can be redeemed`);
      }
    });

    it('OUT_OF_STOCK before tier and balance', async () => {
      const { tenant, key } = await world();
      const gold = await insertTier(tenant.id, 'Gold', 1000);
      const userId = await createCustomer(tenant.id);
      const reward = await insertReward(tenant.id, { stock: 0, minTierId: gold });
      expectError(await redeem(key, userId, reward.id), 409, 'OUT_OF_STOCK', 'The reward is out of stock');
    });

    it('NOT_ELIGIBLE below the tier threshold, before balance', async () => {
      const { tenant, key } = await world();
      const gold = await insertTier(tenant.id, 'Gold', 1000);
      const userId = await customerWithXp(tenant.id, 999);
      const reward = await insertReward(tenant.id, { xpCost: 5000, minTierId: gold });
      expectError(await redeem(key, userId, reward.id), 409, 'NOT_ELIGIBLE', 'The reward requires tier Gold (1000 lifetime XP); the customer has 999');
    });

    it('INSUFFICIENT_XP when the balance is below the cost, and nothing is written', async () => {
      const { tenant, key } = await world();
      const userId = await customerWithXp(tenant.id, 99);
      const reward = await insertReward(tenant.id, { xpCost: 100, stock: 4 });
      expectError(await redeem(key, userId, reward.id), 409, 'INSUFFICIENT_XP', "The reward costs 100 XP; the customer's balance is 99");
      expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 99, ledgerSum: 99, entries: 1 });
      expect(await rewardStock(tenant.id, reward.id)).toBe(4);
    });
  });

  describe('a change that lands between the checks and the write is caught by the guard in the write batch', () => {
    type Change = { schema: z.ZodType; gate: RegExp; request: (tenant: TestTenant, ids: { userId: string; rewardId: string; tierId: string }) => Request };
    const changes: [string, Change, string, RegExp][] = [
      [
        'the reward is archived',
        { schema: rewardSchema, gate: /update "rewards" set "status"/i, request: (t, ids) => portalRequest(t.owner, 'PATCH', `/api/v1/tenant/${t.id}/rewards/${ids.rewardId}`, { status: 'archived' }) },
        'REWARD_NOT_ACTIVE',
        /^The reward is archived/,
      ],
      [
        'the customer is suspended',
        { schema: successFlagSchema, gate: /update "customers" set "status"/i, request: (t, ids) => portalRequest(t.owner, 'PATCH', `/api/v1/tenant/${t.id}/customers/${ids.userId}`, { status: 'suspended' }) },
        'CUSTOMER_NOT_ACTIVE',
        /^The customer is suspended/,
      ],
      [
        'the tier threshold is raised above the customer',
        {
          schema: successFlagSchema,
          gate: /update "tier_rules" set/i,
          request: (t, ids) =>
            portalRequest(t.owner, 'PUT', `/api/v1/tenant/${t.id}/tiers/${ids.tierId}`, { tier_name: 'Gold', min_xp_threshold: 5000, benefits_description: '', color: '', icon: '' }),
        },
        'NOT_ELIGIBLE',
        /requires tier Gold \(5000 lifetime XP\)/,
      ],
    ];

    it.each(changes)('%s: 409 %s, nothing spent or taken', async (_name, change, code, message) => {
      const { tenant, key } = await world();
      const tierId = await insertTier(tenant.id, 'Gold', 100);
      const userId = await customerWithXp(tenant.id, 300);
      const reward = await insertReward(tenant.id, { xpCost: 100, stock: 3, minTierId: tierId });
      const gate = new RegExp(`${change.gate.source}|insert into "redemption_guard"`, 'i');
      // Released in order: the change lands first, then the redemption's write batch (its checks already passed).
      const { responses, held } = await race(
        [change.request(tenant, { userId, rewardId: reward.id, tierId }), await gatewayRequest(key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: userId, reward_id: reward.id } })],
        gate,
        { inOrder: true },
      );
      expect(held).toBe(2);
      const [changed, redeemed] = responses as [JsonResponse, JsonResponse];
      expectOk(changed, 200, change.schema);
      expectError(redeemed, 409, code as 'REWARD_NOT_ACTIVE', message);
      expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 300, ledgerSum: 300, entries: 1 });
      expect(await rewardStock(tenant.id, reward.id)).toBe(3);
      expect(await db(tenant.id).select().from(redemptions).where(eq(redemptions.tenantId, tenant.id))).toEqual([]);
    });
  });

  it('answers 404 at the field for a customer or reward of another tenant (on another shard and on the same one), or unknown', async () => {
    const { tenant, key } = await world();
    const mine = await customerWithXp(tenant.id, 500);
    const myReward = await insertReward(tenant.id);
    for (const other of await otherTenants(tenant.id)) {
      const theirs = await customerWithXp(other.id, 500);
      const theirReward = await insertReward(other.id);
      const noCustomer = expectError(await redeem(key, theirs, myReward.id), 404, 'NOT_FOUND', 'Customer not found');
      expect(noCustomer.errors[0]?.path).toBe('user_id');
      const noReward = expectError(await redeem(key, mine, theirReward.id), 404, 'NOT_FOUND', 'Reward not found');
      expect(noReward.errors[0]?.path).toBe('reward_id');
      const [untouched] = await db(other.id).select().from(customers).where(eq(customers.id, theirs));
      expect(untouched?.xpBalance).toBe(500);
    }
    expectError(await redeem(key, 'cus_nope', myReward.id), 404, 'NOT_FOUND', 'Customer not found');
  });

  it('answers 422 for a missing or unknown field', async () => {
    const { key } = await world();
    const missing = expectError(await gatewayCall(key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: 'cus_x' } }), 422, 'VALIDATION_FAILED');
    expect(missing.errors.map((e) => e.path)).toEqual(['reward_id']);
    const extra = expectError(
      await gatewayCall(key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: 'cus_x', reward_id: 'rwd_x', xp_spent: '0' } }),
      422,
      'VALIDATION_FAILED',
    );
    expect(extra.errors.map((e) => e.path)).toEqual(['xp_spent']);
  });

  it('spends once when the same idempotency key is replayed', async () => {
    const { tenant, key } = await world();
    const userId = await customerWithXp(tenant.id, 300);
    const reward = await insertReward(tenant.id);
    const body = { user_id: userId, reward_id: reward.id };
    const first = await gatewayCall(key, 'POST', '/api/v1/gateway/redemptions', { body, idempotencyKey: 'redeem-once' });
    const replay = await gatewayCall(key, 'POST', '/api/v1/gateway/redemptions', { body, idempotencyKey: 'redeem-once' });
    expectOk(first, 201, redemptionSchema);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 200, ledgerSum: 200 });
  });

  it('requires an idempotency key', async () => {
    const { tenant, key } = await world();
    const userId = await customerWithXp(tenant.id, 300);
    const reward = await insertReward(tenant.id);
    const res = await gatewayCall(key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: userId, reward_id: reward.id }, idempotencyKey: null });
    expectError(res, 400, 'IDEMPOTENCY_KEY_REQUIRED');
  });
});

describe('GET /gateway/redemptions/{id}', () => {
  it('returns the redemption, and 404 for one of another tenant (on another shard and on the same one)', async () => {
    const { tenant, key } = await world();
    const userId = await customerWithXp(tenant.id, 100);
    const reward = await insertReward(tenant.id);
    const created = expectOk(await redeem(key, userId, reward.id), 201, redemptionSchema);
    const fetched = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/redemptions/${created.id}`), 200, redemptionSchema);
    expect(fetched).toEqual(created);
    for (const other of await otherTenants(tenant.id)) {
      const otherKey = await createTestApiKey(other.id);
      expectError(await gatewayCall(otherKey, 'GET', `/api/v1/gateway/redemptions/${created.id}`), 404, 'NOT_FOUND', 'Redemption not found');
    }
    expectError(await gatewayCall(key, 'GET', '/api/v1/gateway/redemptions/red_missing'), 404, 'NOT_FOUND', 'Redemption not found');
  });
});
