import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { internalTransactions, redemptions, type Redemption } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { redemptionSchema, type RedemptionView } from '../../src/schemas/redemption';
import { rewardSchema } from '../../src/schemas/reward';
import { createCustomer, ledgerState } from '../support/ledger';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { customerWithXp, insertAsset, insertReward, redeem, rewardStock } from '../support/rewards';
import { addMember, createTenant, createTestApiKey, db, otherTenants, portalCall, type TestTenant } from '../support/world';

const base = (tenantId: string) => `/api/v1/tenant/${tenantId}/redemptions`;

/** A tenant (a new one unless given) with a key, one customer with `xp`, and a reward (cost 100, stock 5 unless told). */
async function world(xp = 1000, reward: Parameters<typeof insertReward>[1] = {}, given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  const key = await createTestApiKey(tenant.id);
  const userId = await customerWithXp(tenant.id, xp);
  const rewardRow = await insertReward(tenant.id, { xpCost: 100, stock: 5, ...reward });
  const redeemOnce = async () => expectOk(await redeem(key, userId, rewardRow.id), 201, redemptionSchema);
  return { tenant, key, userId, reward: rewardRow, redeemOnce };
}

/** A redemption row written directly, e.g. in a status the API cannot reach yet (failed). */
async function seedRedemption(tenantId: string, userId: string, rewardId: string, status: Redemption['status']) {
  const id = newId('red');
  await db(tenantId).insert(redemptions).values({ id, tenantId, userId, rewardId, status, xpSpent: 100 });
  return id;
}

/** A completed redemption of each of two other tenants: one on another shard, one beside `tenantId` on its shard. */
async function foreignRedemptions(tenantId: string): Promise<RedemptionView[]> {
  const redeemed: RedemptionView[] = [];
  for (const other of await otherTenants(tenantId)) redeemed.push(await (await world(1000, {}, other)).redeemOnce());
  return redeemed;
}

const cancel = (tenant: TestTenant, id: string, member = tenant.owner) => portalCall(member, 'POST', `${base(tenant.id)}/${id}/cancel`);

describe('GET /tenant/{t}/redemptions', () => {
  it('lists newest first with filters status, user_id, reward_id, paged (viewer may read)', async () => {
    const { tenant, key, userId, reward, redeemOnce } = await world();
    const otherUser = await customerWithXp(tenant.id, 1000);
    const otherReward = await insertReward(tenant.id, { xpCost: 10 });
    const a = await redeemOnce();
    const b = expectOk(await redeem(key, otherUser, reward.id), 201, redemptionSchema);
    const c = expectOk(await redeem(key, userId, otherReward.id), 201, redemptionSchema);
    expectOk(await cancel(tenant, b.id), 200, redemptionSchema);
    await foreignRedemptions(tenant.id);
    const viewer = await addMember(tenant.id, 'viewer');
    const list = async (query: string) => expectOk(await portalCall(viewer, 'GET', `${base(tenant.id)}${query}`), 200, pageSchema(redemptionSchema));

    const all = await list('');
    expect(all.items.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    expect(all).toMatchObject({ total_count: 3, total_pages: 1, has_next_page: false });
    expect((await list(`?user_id=${userId}`)).items.map((r) => r.id)).toEqual([c.id, a.id]);
    expect((await list(`?reward_id=${reward.id}`)).items.map((r) => r.id)).toEqual([b.id, a.id]);
    expect((await list('?status=canceled')).items.map((r) => r.id)).toEqual([b.id]);
    expect((await list(`?status=completed&user_id=${userId}&reward_id=${reward.id}`)).items.map((r) => r.id)).toEqual([a.id]);
    const page2 = await list('?limit=2&page=2');
    expect(page2.items.map((r) => r.id)).toEqual([a.id]);
    expect(page2).toMatchObject({ total_count: 3, total_pages: 2, has_next_page: false, page: 2, limit: 2 });
    // Each item carries its own reward and user.
    expect(all.items.find((r) => r.id === c.id)?.reward.id).toBe(otherReward.id);
    expect(all.items.find((r) => r.id === b.id)?.user.id).toBe(otherUser);
  });

  it('answers 422 for an unknown status and 404 to a non-member (of another tenant on another shard or the same one)', async () => {
    const { tenant } = await world();
    expectError(await portalCall(tenant.owner, 'GET', `${base(tenant.id)}?status=done`), 422, 'VALIDATION_FAILED');
    for (const query of ['limit=0', 'limit=101', 'page=0']) expectError(await portalCall(tenant.owner, 'GET', `${base(tenant.id)}?${query}`), 422, 'VALIDATION_FAILED');
    for (const other of await otherTenants(tenant.id)) expectError(await portalCall(other.owner, 'GET', base(tenant.id)), 404, 'NOT_FOUND');
  });
});

describe('GET /tenant/{t}/redemptions/{redemption_id}', () => {
  it('returns the spec object, and 404 for a redemption of another tenant (on another shard and on the same one)', async () => {
    const { tenant, redeemOnce } = await world();
    const created = await redeemOnce();
    const fetched = expectOk(await portalCall(tenant.owner, 'GET', `${base(tenant.id)}/${created.id}`), 200, redemptionSchema);
    expect(fetched).toEqual(created);
    for (const theirs of await foreignRedemptions(tenant.id)) {
      expectError(await portalCall(tenant.owner, 'GET', `${base(tenant.id)}/${theirs.id}`), 404, 'NOT_FOUND', 'Redemption not found');
    }
  });
});

describe('POST /tenant/{t}/redemptions/{redemption_id}/cancel', () => {
  it('refunds: balance back, lifetime unchanged, stock back, ledger sums to balance, compensating entry linked', async () => {
    const { tenant, userId, reward, redeemOnce } = await world(250);
    const redemption = await redeemOnce();
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 150, lifetime: 250 });
    expect(await rewardStock(tenant.id, reward.id)).toBe(4);

    const canceled = expectOk(await cancel(tenant, redemption.id), 200, redemptionSchema);
    expect(canceled).toMatchObject({ id: redemption.id, status: 'canceled', xp_spent: '100' });
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 250, lifetime: 250, ledgerSum: 250, entries: 3 });
    expect(await rewardStock(tenant.id, reward.id)).toBe(5);
    const entries = await db(tenant.id)
      .select({ type: internalTransactions.type, amount: internalTransactions.amount, status: internalTransactions.status })
      .from(internalTransactions)
      .where(and(eq(internalTransactions.tenantId, tenant.id), eq(internalTransactions.redemptionId, redemption.id)));
    expect(entries.sort((x, y) => x.amount - y.amount)).toEqual([
      { type: 'xp_redeem', amount: -100, status: 'completed' },
      { type: 'xp_redeem', amount: 100, status: 'completed' },
    ]);
  });

  it('refunds what was paid even if the price changed since, and leaves unlimited stock unlimited', async () => {
    const { tenant, userId, reward, redeemOnce } = await world(100, { stock: null });
    const redemption = await redeemOnce();
    const repriced = await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/rewards/${reward.id}`, { xp_cost: '999' });
    expect(expectOk(repriced, 200, rewardSchema).xp_cost).toBe('999');
    expectOk(await cancel(tenant, redemption.id), 200, redemptionSchema);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 100, ledgerSum: 100 });
    expect(await rewardStock(tenant.id, reward.id)).toBeNull();
  });

  it('refuses (409) to cancel an initialized (onchain) redemption while it settles, and refunds nothing', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = await customerWithXp(tenant.id, 100);
    const reward = await insertReward(tenant.id, { onchainAssetId: await insertAsset(tenant.id) });
    const redemption: RedemptionView = expectOk(await redeem(key, userId, reward.id), 201, redemptionSchema);
    expect(redemption.status).toBe('initialized');
    expectError(await cancel(tenant, redemption.id), 409, 'INVALID_STATUS_TRANSITION', 'The redemption is initialized: it is settling onchain');
    // The debit stays reserved (balance 0) until settlement completes or fails it.
    expect((await ledgerState(tenant.id, userId)).balance).toBe(0);
  });

  it('answers 409 INVALID_STATUS_TRANSITION for a canceled or failed redemption, without refunding again', async () => {
    const { tenant, userId, reward, redeemOnce } = await world(300);
    const redemption = await redeemOnce();
    expectOk(await cancel(tenant, redemption.id), 200, redemptionSchema);
    expectError(await cancel(tenant, redemption.id), 409, 'INVALID_STATUS_TRANSITION', 'Redemption status cannot move from canceled to canceled');
    const failed = await seedRedemption(tenant.id, userId, reward.id, 'failed');
    expectError(await cancel(tenant, failed), 409, 'INVALID_STATUS_TRANSITION', 'Redemption status cannot move from failed to canceled');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 300, ledgerSum: 300 });
  });

  it('refunds once when two cancels race', async () => {
    const { tenant, userId, reward, redeemOnce } = await world(100);
    const redemption = await redeemOnce();
    // All three read the redemption as completed before any refund batch lands: only the
    // one-refund-per-redemption index can stop a double refund.
    const path = `${base(tenant.id)}/${redemption.id}/cancel`;
    const { responses, held } = await race([1, 2, 3].map(() => portalRequest(tenant.owner, 'POST', path)), /update "redemptions" set "status"/i);
    expect(held).toBe(3);
    const done = responses.filter((res) => res.status === 200);
    expect(done).toHaveLength(1);
    expect(expectOk(done[0]!, 200, redemptionSchema).status).toBe('canceled');
    const refused = responses.filter((res) => res.status !== 200);
    expect(refused).toHaveLength(2);
    for (const res of refused) expectError(res, 409, 'INVALID_STATUS_TRANSITION', 'The redemption was already canceled or refunded');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 100, ledgerSum: 100, entries: 3 });
    expect(await rewardStock(tenant.id, reward.id)).toBe(5);
  });

  it('answers 403 to a viewer, lets an editor cancel, and 404 for another tenant redemption (on another shard and on the same one)', async () => {
    const { tenant, redeemOnce } = await world();
    const redemption = await redeemOnce();
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await cancel(tenant, redemption.id, viewer), 403, 'FORBIDDEN');
    for (const theirs of await foreignRedemptions(tenant.id)) expectError(await cancel(tenant, theirs.id), 404, 'NOT_FOUND');
    const editor = await addMember(tenant.id, 'editor');
    expectOk(await cancel(tenant, redemption.id, editor), 200, redemptionSchema);
  });

  it('answers 404 for an unknown redemption', async () => {
    const tenant = await createTenant();
    await createCustomer(tenant.id);
    expectError(await cancel(tenant, 'red_nope'), 404, 'NOT_FOUND', 'Redemption not found');
  });
});
