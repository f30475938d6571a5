import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { tierRuleSchema } from '../../src/schemas/tier';
import { createTierViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { createTenant, createTestApiKey, gatewayCall, otherTenants, type TestTenant } from '../support/world';

const PATH = '/api/v1/gateway/tiers';
const tierPage = pageSchema(tierRuleSchema);

/** Three tiers of `given` (a new tenant unless given: e.g. one of `otherTenants`, whose rows may sit beside the tenant's, kept apart only by tenant filters). */
async function world(given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  const key = await createTestApiKey(tenant.id);
  const bronze = await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
  const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 1000);
  const silver = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 250);
  return { tenant, key, bronze, silver, gold };
}

describe('GET /gateway/tiers', () => {
  it("lists the key's tenant's tiers lowest threshold first, never another tenant's (on another shard or the same one)", async () => {
    const { tenant, key, bronze, silver, gold } = await world();
    for (const other of await otherTenants(tenant.id)) await world(other);
    const page = expectOk(await gatewayCall(key, 'GET', PATH), 200, tierPage);
    expect(page.items.map((tier) => tier.id)).toEqual([bronze.id, silver.id, gold.id]);
    expect(page.items[2]).toEqual(gold);
    expect(page.items.every((tier) => tier.tenant.id === tenant.id)).toBe(true);
    expect(page).toMatchObject({ total_count: 3, total_pages: 1, has_next_page: false });
  });

  it('filters by exact tier_name (case-sensitive)', async () => {
    const { key, silver } = await world();
    const exact = expectOk(await gatewayCall(key, 'GET', `${PATH}?tier_name=Silver`), 200, tierPage);
    expect(exact.items.map((tier) => tier.id)).toEqual([silver.id]);
    expect(expectOk(await gatewayCall(key, 'GET', `${PATH}?tier_name=silver`), 200, tierPage).total_count).toBe(0);
    expect(expectOk(await gatewayCall(key, 'GET', `${PATH}?tier_name=Silv`), 200, tierPage).total_count).toBe(0);
  });

  it('pages (limit, page, total_pages, has_next_page) and rejects out-of-range values (422)', async () => {
    const { key, bronze, silver, gold } = await world();
    const first = expectOk(await gatewayCall(key, 'GET', `${PATH}?limit=2`), 200, tierPage);
    expect(first).toMatchObject({ total_count: 3, page: 1, limit: 2, total_pages: 2, has_next_page: true });
    expect(first.items.map((tier) => tier.id)).toEqual([bronze.id, silver.id]);
    const second = expectOk(await gatewayCall(key, 'GET', `${PATH}?limit=2&page=2`), 200, tierPage);
    expect(second.items.map((tier) => tier.id)).toEqual([gold.id]);
    expect(second.has_next_page).toBe(false);
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=abc']) {
      expectError(await gatewayCall(key, 'GET', `${PATH}?${query}`), 422, 'VALIDATION_FAILED');
    }
  });

  it('is an empty page for a tenant without tiers', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    expect(expectOk(await gatewayCall(key, 'GET', PATH), 200, tierPage)).toEqual({
      items: [],
      total_count: 0,
      page: 1,
      limit: 20,
      total_pages: 0,
      has_next_page: false,
    });
  });
});
