import { describe, expect, it } from 'vitest';
import { redemptions, type Redemption } from '../../src/db/schema';
import { sharePercent } from '../../src/domain/analytics';
import { newId } from '../../src/lib/ids';
import { topRewardsSchema } from '../../src/schemas/analytics';
import { createCustomer } from '../support/ledger';
import { expectError, expectOk } from '../support/http';
import { insertReward } from '../support/rewards';
import { addMember, createTenant, db, otherTenants, portalCall, type TestMember } from '../support/world';

/**
 * Known dataset: Alpha 2 counted (one pending), Bravo 2, Charlie 1 counted plus one canceled and one
 * failed (never counted), Delta never redeemed; another tenant's redemption must not leak in.
 */
async function dataset() {
  const tenant = await createTenant();
  const userId = await createCustomer(tenant.id);
  const [alpha, bravo, charlie] = [await insertReward(tenant.id, { title: 'Alpha' }), await insertReward(tenant.id, { title: 'Bravo' }), await insertReward(tenant.id, { title: 'Charlie' })];
  await insertReward(tenant.id, { title: 'Delta' });
  const row = (rewardId: string, status: Redemption['status'], createdAt: string) => ({ id: newId('red'), tenantId: tenant.id, userId, rewardId, status, xpSpent: 100, createdAt });
  await db(tenant.id).insert(redemptions).values([
    row(bravo.id, 'completed', '2026-01-10T08:00:00.000Z'),
    row(bravo.id, 'completed', '2026-01-20T08:00:00.000Z'),
    row(alpha.id, 'completed', '2026-01-15T00:00:00.000Z'),
    row(alpha.id, 'pending', '2026-02-01T08:00:00.000Z'),
    row(charlie.id, 'initialized', '2026-01-31T23:00:00.000Z'),
    row(charlie.id, 'canceled', '2026-01-12T08:00:00.000Z'),
    row(charlie.id, 'failed', '2026-01-13T08:00:00.000Z'),
  ]);
  // Other tenants' redemptions on another shard and on the tenant's (there only the query's tenant filter keeps them out).
  for (const other of await otherTenants(tenant.id)) {
    const otherUser = await createCustomer(other.id);
    await db(other.id).insert(redemptions).values({ id: newId('red'), tenantId: other.id, userId: otherUser, rewardId: (await insertReward(other.id, { title: 'Alpha' })).id, status: 'completed', xpSpent: 1 });
  }
  return { tenant, alpha, bravo, charlie };
}

async function topRewards(member: TestMember, tenantId: string, query = '') {
  return expectOk(await portalCall(member, 'GET', `/api/v1/tenant/${tenantId}/analytics/top-rewards${query}`), 200, topRewardsSchema);
}

const ranking = (data: { items: { reward: { title: string }; redemption_count: number; share_of_tenant_redemptions_percent: number }[] }) =>
  data.items.map((item) => [item.reward.title, item.redemption_count, item.share_of_tenant_redemptions_percent]);

describe('GET /tenant/{t}/analytics/top-rewards', () => {
  it('counts redemptions that stand per reward, highest first, ties by title, shares of the total', async () => {
    const { tenant, alpha } = await dataset();
    const viewer = await addMember(tenant.id, 'viewer');
    const data = await topRewards(viewer, tenant.id);
    expect(data.tenant_id).toBe(tenant.id);
    expect(data.total_redemptions).toBe(5);
    expect(ranking(data)).toEqual([
      ['Alpha', 2, 40],
      ['Bravo', 2, 40],
      ['Charlie', 1, 20],
    ]);
    expect(data.items[0]?.reward).toMatchObject({ id: alpha.id, tenant_id: tenant.id, title: 'Alpha', xp_cost: '100', status: 'active', is_active: true, onchain_asset_id: null });
  });

  it('applies limit (default 10) without changing the total', async () => {
    const { tenant } = await dataset();
    const data = await topRewards(tenant.owner, tenant.id, '?limit=1');
    expect(ranking(data)).toEqual([['Alpha', 2, 40]]);
    expect(data.total_redemptions).toBe(5);
  });

  it('filters by from/to on the redemption time: dates are whole UTC days, both ends inclusive', async () => {
    const { tenant } = await dataset();
    const january = await topRewards(tenant.owner, tenant.id, '?from=2026-01-15&to=2026-01-31');
    expect(january.total_redemptions).toBe(3);
    expect(ranking(january)).toEqual([
      ['Alpha', 1, 33.33],
      ['Bravo', 1, 33.33],
      ['Charlie', 1, 33.33],
    ]);
    const exact = await topRewards(tenant.owner, tenant.id, '?from=2026-01-15T00:00:00Z&to=2026-01-31T22:00:00%2B00:00');
    expect(ranking(exact)).toEqual([
      ['Alpha', 1, 50],
      ['Bravo', 1, 50],
    ]);
    const rounded = await topRewards(tenant.owner, tenant.id, '?from=2026-01-10&to=2026-01-20');
    expect(ranking(rounded)).toEqual([
      ['Bravo', 2, 66.67],
      ['Alpha', 1, 33.33],
    ]);
    const open = await topRewards(tenant.owner, tenant.id, '?from=2026-02-01');
    expect(ranking(open)).toEqual([['Alpha', 1, 100]]);
  });

  it('answers an empty ranking for a tenant without redemptions', async () => {
    const tenant = await createTenant();
    expect(await topRewards(tenant.owner, tenant.id)).toEqual({ items: [], tenant_id: tenant.id, total_redemptions: 0 });
  });

  it.each(['?limit=0', '?limit=101', '?from=2026-13-01', '?to=yesterday', '?from=2026-02-01&to=2026-01-31'])('answers 422 for %s', async (query) => {
    const tenant = await createTenant();
    expectError(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/analytics/top-rewards${query}`), 422, 'VALIDATION_FAILED');
  });

  it('names `to` when the period is reversed', async () => {
    const tenant = await createTenant();
    const body = expectError(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/analytics/top-rewards?from=2026-02-01&to=2026-01-31`), 422, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ path: 'to', message: 'Must not be before from' }]);
  });

  it('answers 404 to a member of another tenant (on another shard and on the same one)', async () => {
    const { tenant } = await dataset();
    for (const { owner: outsider } of await otherTenants(tenant.id)) {
      expectError(await portalCall(outsider, 'GET', `/api/v1/tenant/${tenant.id}/analytics/top-rewards`), 404, 'NOT_FOUND');
    }
  });
});

describe('share rounding', () => {
  it('rounds to 2 decimals, halves up', () => {
    expect(sharePercent(1, 3)).toBe(33.33);
    expect(sharePercent(2, 3)).toBe(66.67);
    expect(sharePercent(1, 32)).toBe(3.13);
    expect(sharePercent(1, 8)).toBe(12.5);
    expect(sharePercent(0, 0)).toBe(0);
  });
});
