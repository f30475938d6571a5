import { describe, expect, it } from 'vitest';
import { redemptions } from '../../src/db/schema';
import { successFlagSchema } from '../../src/lib/envelope';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { rewardSchema } from '../../src/schemas/reward';
import { createCustomer } from '../support/ledger';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { insertAsset, insertReward, insertTier } from '../support/rewards';
import { addMember, createTenant, db, otherTenants, portalCall, type TestMember } from '../support/world';

const rewardsPath = (tenantId: string) => `/api/v1/tenant/${tenantId}/rewards`;

async function createViaApi(member: TestMember, tenantId: string, body: Record<string, unknown>) {
  return expectOk(await portalCall(member, 'POST', rewardsPath(tenantId), { title: 'Free coffee', xp_cost: '150', ...body }), 201, rewardSchema);
}

describe('POST /tenant/{t}/rewards', () => {
  it('creates a draft reward with defaults: 201, unlimited stock, not active', async () => {
    const tenant = await createTenant();
    const reward = await createViaApi(tenant.owner, tenant.id, {});
    expect(reward).toMatchObject({
      title: 'Free coffee',
      description: '',
      xp_cost: '150',
      status: 'draft',
      is_active: false,
      min_tier_id: null,
      onchain_asset_id: null,
      stock: null,
      metadata: null,
    });
    expect(reward.id).toMatch(/^rwd_/);
  });

  it('accepts every field and an active status', async () => {
    const tenant = await createTenant();
    const tierId = await insertTier(tenant.id, 'Gold', 500);
    const assetId = await insertAsset(tenant.id);
    const reward = await createViaApi(tenant.owner, tenant.id, {
      description: 'One cup',
      xp_cost: '75',
      status: 'active',
      min_tier_id: tierId,
      onchain_asset_id: assetId,
      stock: 10,
      metadata: { sku: 'C-1' },
    });
    expect(reward).toMatchObject({ xp_cost: '75', status: 'active', is_active: true, min_tier_id: tierId, onchain_asset_id: assetId, stock: 10, metadata: { sku: 'C-1' } });
  });

  it('answers 422 with the field path for a tier or asset of another tenant (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    // Beside the tenant on its shard, only the checks' tenant filters refuse them.
    for (const other of await otherTenants(tenant.id)) {
      const foreignTier = await insertTier(other.id, 'Gold', 500);
      const foreignAsset = await insertAsset(other.id);
      const res = await portalCall(tenant.owner, 'POST', rewardsPath(tenant.id), { title: 'X', xp_cost: '1', min_tier_id: foreignTier, onchain_asset_id: foreignAsset });
      const body = expectError(res, 422, 'VALIDATION_FAILED');
      expect(body.errors.map((e) => e.path).sort()).toEqual(['min_tier_id', 'onchain_asset_id']);
    }
  });

  it.each([
    [{ xp_cost: '1.5' }, 'xp_cost'],
    [{ xp_cost: '0' }, 'xp_cost'],
    [{ xp_cost: 75 }, 'xp_cost'],
    [{ xp_cost: 'ten' }, 'xp_cost'],
    [{ stock: -1 }, 'stock'],
    [{ title: '' }, 'title'],
    [{ status: 'live' }, 'status'],
    [{ owner: 'me' }, 'owner'],
  ])('answers 422 for %j at its path', async (patch, path) => {
    const tenant = await createTenant();
    const res = await portalCall(tenant.owner, 'POST', rewardsPath(tenant.id), { title: 'X', xp_cost: '10', ...patch });
    expect(expectError(res, 422, 'VALIDATION_FAILED').errors.map((e) => e.path)).toContain(path);
  });

  it('refuses a viewer with 403 and a non-member with 404', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'POST', rewardsPath(tenant.id), { title: 'X', xp_cost: '1' }), 403, 'FORBIDDEN');
    for (const { owner: outsider } of await otherTenants(tenant.id)) {
      expectError(await portalCall(outsider, 'POST', rewardsPath(tenant.id), { title: 'X', xp_cost: '1' }), 404, 'NOT_FOUND');
    }
  });

  it('lets an editor create', async () => {
    const tenant = await createTenant();
    const editor = await addMember(tenant.id, 'editor');
    await createViaApi(editor, tenant.id, {});
  });
});

describe('GET /tenant/{t}/rewards', () => {
  it('lists newest first, filters by status, pages, and shows only the tenant own rewards, not those of tenants on another shard or the same one (viewer may read)', async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) await insertReward(other.id);
    const first = await insertReward(tenant.id, { status: 'draft', createdAt: '2026-01-01T00:00:00.000Z' });
    const second = await insertReward(tenant.id, { status: 'active', createdAt: '2026-01-02T00:00:00.000Z' });
    const third = await insertReward(tenant.id, { status: 'active', createdAt: '2026-01-03T00:00:00.000Z' });
    const viewer = await addMember(tenant.id, 'viewer');

    const all = expectOk(await portalCall(viewer, 'GET', `${rewardsPath(tenant.id)}?limit=2`), 200, pageSchema(rewardSchema));
    expect(all.items.map((r) => r.id)).toEqual([third.id, second.id]);
    expect(all).toMatchObject({ total_count: 3, page: 1, limit: 2, total_pages: 2, has_next_page: true });
    const page2 = expectOk(await portalCall(viewer, 'GET', `${rewardsPath(tenant.id)}?limit=2&page=2`), 200, pageSchema(rewardSchema));
    expect(page2.items.map((r) => r.id)).toEqual([first.id]);

    const drafts = expectOk(await portalCall(viewer, 'GET', `${rewardsPath(tenant.id)}?status=draft`), 200, pageSchema(rewardSchema));
    expect(drafts.items.map((r) => r.id)).toEqual([first.id]);
  });

  it('answers 422 for an unknown status filter or bad paging, and 404 to a non-member', async () => {
    const tenant = await createTenant();
    expectError(await portalCall(tenant.owner, 'GET', `${rewardsPath(tenant.id)}?status=live`), 422, 'VALIDATION_FAILED');
    for (const query of ['limit=0', 'limit=101', 'page=0']) expectError(await portalCall(tenant.owner, 'GET', `${rewardsPath(tenant.id)}?${query}`), 422, 'VALIDATION_FAILED');
    for (const other of await otherTenants(tenant.id)) expectError(await portalCall(other.owner, 'GET', rewardsPath(tenant.id)), 404, 'NOT_FOUND');
  });
});

describe('GET /tenant/{t}/rewards/{id}', () => {
  it('returns the reward, and 404 for a reward of another tenant (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    const mine = await insertReward(tenant.id, { stock: 3 });
    const reward = expectOk(await portalCall(tenant.owner, 'GET', `${rewardsPath(tenant.id)}/${mine.id}`), 200, rewardSchema);
    expect(reward).toMatchObject({ id: mine.id, stock: 3, is_active: true, xp_cost: '100' });
    for (const other of await otherTenants(tenant.id)) {
      const theirs = await insertReward(other.id);
      expectError(await portalCall(tenant.owner, 'GET', `${rewardsPath(tenant.id)}/${theirs.id}`), 404, 'NOT_FOUND', 'Reward not found');
    }
  });
});

describe('PATCH /tenant/{t}/rewards/{id}', () => {
  it('changes only the fields sent; null clears stock and references', async () => {
    const tenant = await createTenant();
    const tierId = await insertTier(tenant.id, 'Gold', 500);
    const created = await createViaApi(tenant.owner, tenant.id, { description: 'Keep me', stock: 5, min_tier_id: tierId, metadata: { a: 1 } });
    const path = `${rewardsPath(tenant.id)}/${created.id}`;
    const renamed = expectOk(await portalCall(tenant.owner, 'PATCH', path, { title: 'Espresso', xp_cost: '90' }), 200, rewardSchema);
    expect(renamed).toMatchObject({ title: 'Espresso', xp_cost: '90', description: 'Keep me', stock: 5, min_tier_id: tierId, metadata: { a: 1 } });
    const cleared = expectOk(await portalCall(tenant.owner, 'PATCH', path, { stock: null, min_tier_id: null, metadata: null }), 200, rewardSchema);
    expect(cleared).toMatchObject({ stock: null, min_tier_id: null, metadata: null, title: 'Espresso' });
  });

  it('moves status draft -> active -> archived -> active, never back to draft (409)', async () => {
    const tenant = await createTenant();
    const created = await createViaApi(tenant.owner, tenant.id, {});
    const path = `${rewardsPath(tenant.id)}/${created.id}`;
    expect(expectOk(await portalCall(tenant.owner, 'PATCH', path, { status: 'active' }), 200, rewardSchema).is_active).toBe(true);
    expect(expectOk(await portalCall(tenant.owner, 'PATCH', path, { status: 'archived' }), 200, rewardSchema).is_active).toBe(false);
    expectOk(await portalCall(tenant.owner, 'PATCH', path, { status: 'active' }), 200, rewardSchema);
    expectError(await portalCall(tenant.owner, 'PATCH', path, { status: 'draft' }), 409, 'INVALID_STATUS_TRANSITION', 'Reward status cannot move from active to draft');
  });

  it('never lands a status move checked against a stale status: publish racing "stay draft" cannot end in draft', async () => {
    const tenant = await createTenant();
    const created = await createViaApi(tenant.owner, tenant.id, {});
    const path = `${rewardsPath(tenant.id)}/${created.id}`;
    // Both read `draft` (each move allowed from it); the publish lands first, then the stale "draft".
    const { responses, held } = await race(
      [portalRequest(tenant.owner, 'PATCH', path, { status: 'active' }), portalRequest(tenant.owner, 'PATCH', path, { status: 'draft' })],
      /update "rewards"/i,
      { inOrder: true },
    );
    expect(held).toBe(2);
    expect(expectOk(responses[0]!, 200, rewardSchema).status).toBe('active');
    const error = expectError(responses[1]!, 409, 'CONFLICT', /changed by another request/);
    expect(error.errors).toEqual([{ path: 'status', message: error.message }]);
    expect(expectOk(await portalCall(tenant.owner, 'GET', path), 200, rewardSchema).status).toBe('active');
  });

  it('answers 422 for an empty body or a foreign tier, 403 to a viewer, 404 for another tenant reward (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    const mine = await insertReward(tenant.id);
    const path = `${rewardsPath(tenant.id)}/${mine.id}`;
    expectError(await portalCall(tenant.owner, 'PATCH', path, {}), 422, 'VALIDATION_FAILED', 'The request is not valid');
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'PATCH', path, { title: 'X' }), 403, 'FORBIDDEN');
    for (const other of await otherTenants(tenant.id)) {
      const theirs = await insertReward(other.id);
      const foreignTier = await insertTier(other.id, 'Gold', 1);
      const body = expectError(await portalCall(tenant.owner, 'PATCH', path, { min_tier_id: foreignTier }), 422, 'VALIDATION_FAILED');
      expect(body.errors).toEqual([{ path: 'min_tier_id', message: 'No such tier in this tenant' }]);
      expectError(await portalCall(tenant.owner, 'PATCH', `${rewardsPath(tenant.id)}/${theirs.id}`, { title: 'X' }), 404, 'NOT_FOUND');
    }
  });
});

describe('DELETE /tenant/{t}/rewards/{id}', () => {
  it('deletes a never-redeemed reward', async () => {
    const tenant = await createTenant();
    const reward = await insertReward(tenant.id);
    const path = `${rewardsPath(tenant.id)}/${reward.id}`;
    expect(expectOk(await portalCall(tenant.owner, 'DELETE', path), 200, successFlagSchema)).toEqual({ success: true });
    expectError(await portalCall(tenant.owner, 'GET', path), 404, 'NOT_FOUND');
  });

  it('refuses a redeemed reward with 409 and suggests archiving', async () => {
    const tenant = await createTenant();
    const reward = await insertReward(tenant.id);
    const userId = await createCustomer(tenant.id);
    await db(tenant.id).insert(redemptions).values({ id: newId('red'), tenantId: tenant.id, userId, rewardId: reward.id, status: 'canceled', xpSpent: 100 });
    expectError(await portalCall(tenant.owner, 'DELETE', `${rewardsPath(tenant.id)}/${reward.id}`), 409, 'CONFLICT', /archive it instead/);
  });

  it('answers 403 to a viewer and 404 for another tenant reward (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    const mine = await insertReward(tenant.id);
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'DELETE', `${rewardsPath(tenant.id)}/${mine.id}`), 403, 'FORBIDDEN');
    for (const other of await otherTenants(tenant.id)) {
      const theirs = await insertReward(other.id);
      expectError(await portalCall(tenant.owner, 'DELETE', `${rewardsPath(tenant.id)}/${theirs.id}`), 404, 'NOT_FOUND');
    }
  });
});
