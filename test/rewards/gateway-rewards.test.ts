import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { rewardSchema } from '../../src/schemas/reward';
import { expectError, expectOk } from '../support/http';
import { insertReward } from '../support/rewards';
import { createTenant, createTestApiKey, gatewayCall, otherTenants } from '../support/world';

describe('GET /gateway/rewards', () => {
  it('lists only the tenant active rewards, newest first, paged (never those of another tenant, on another shard or the same one)', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    for (const other of await otherTenants(tenant.id)) await insertReward(other.id, { status: 'active' });
    await insertReward(tenant.id, { status: 'draft' });
    await insertReward(tenant.id, { status: 'archived' });
    const older = await insertReward(tenant.id, { status: 'active', createdAt: '2026-01-01T00:00:00.000Z' });
    const newer = await insertReward(tenant.id, { status: 'active', createdAt: '2026-02-01T00:00:00.000Z', stock: 0 });

    const page = expectOk(await gatewayCall(key, 'GET', '/api/v1/gateway/rewards'), 200, pageSchema(rewardSchema));
    expect(page.items.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(page).toMatchObject({ total_count: 2, page: 1, limit: 20, total_pages: 1, has_next_page: false });
    expect(page.items.every((r) => r.is_active)).toBe(true);

    const second = expectOk(await gatewayCall(key, 'GET', '/api/v1/gateway/rewards?page=2&limit=1'), 200, pageSchema(rewardSchema));
    expect(second.items.map((r) => r.id)).toEqual([older.id]);
  });

  it('answers 422 for an out-of-range limit and 401 for a bad signature', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    expectError(await gatewayCall(key, 'GET', '/api/v1/gateway/rewards?limit=101'), 422, 'VALIDATION_FAILED');
    expectError(await gatewayCall({ ...key, secret: 'sk_wrong' }, 'GET', '/api/v1/gateway/rewards'), 401, 'AUTH_INVALID_CREDENTIALS');
  });
});
