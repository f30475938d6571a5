import { describe, expect, it } from 'vitest';
import { eligibilitySchema } from '../../src/schemas/tier';
import { addXp, createCustomerViaApi, createTierViaApi } from '../support/customers';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { createTenant, createTestApiKey, gatewayCall, otherTenants, portalCall, type TestApiKey, type TestTenant } from '../support/world';

type Surface = { name: string; get: (tenant: TestTenant, key: TestApiKey, userId: string, tierId: string) => Promise<JsonResponse> };

const surfaces: Surface[] = [
  { name: 'gateway', get: (_t, key, userId, tierId) => gatewayCall(key, 'GET', `/api/v1/gateway/customers/${userId}/tier/${tierId}/eligibility`) },
  { name: 'portal', get: (t, _key, userId, tierId) => portalCall(t.owner, 'GET', `/api/v1/tenant/${t.id}/customers/${userId}/tier/${tierId}/eligibility`) },
];

/** `given`: a tenant to set up (one of `otherTenants`), else a new one. */
async function world(given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  const key = await createTestApiKey(tenant.id);
  const customer = await createCustomerViaApi(key);
  const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 100);
  return { tenant, key, customer, gold };
}

describe.each(surfaces)('GET customers/{userId}/tier/{tierId}/eligibility ($name)', ({ get }) => {
  it('is eligible exactly when lifetime_xp reaches the threshold, whatever is spent', async () => {
    const { tenant, key, customer, gold } = await world();
    const check = async () => expectOk(await get(tenant, key, customer.id, gold.id), 200, eligibilitySchema);
    expect(await check()).toEqual({ eligible: false });
    await addXp(tenant.id, customer.id, 99);
    expect(await check()).toEqual({ eligible: false });
    await addXp(tenant.id, customer.id, 1, 'xp_bonus');
    expect(await check()).toEqual({ eligible: true });
    // Spending lowers the balance, not lifetime XP.
    await addXp(tenant.id, customer.id, -100, 'xp_redeem');
    expect(await check()).toEqual({ eligible: true });
  });

  it('answers 404 for an unknown customer or tier, and for either of another tenant (on another shard and on the same one)', async () => {
    const mine = await world();
    expectError(await get(mine.tenant, mine.key, 'cus_missing', mine.gold.id), 404, 'NOT_FOUND', 'Customer not found');
    expectError(await get(mine.tenant, mine.key, mine.customer.id, 'tier_missing'), 404, 'NOT_FOUND', 'Tier not found');
    for (const other of await otherTenants(mine.tenant.id)) {
      const theirs = await world(other);
      expectError(await get(mine.tenant, mine.key, theirs.customer.id, mine.gold.id), 404, 'NOT_FOUND', 'Customer not found');
      expectError(await get(mine.tenant, mine.key, mine.customer.id, theirs.gold.id), 404, 'NOT_FOUND', 'Tier not found');
    }
  });
});
