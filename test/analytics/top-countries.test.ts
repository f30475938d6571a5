import { describe, expect, it } from 'vitest';
import { customers, type CustomerStatus } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { topCountriesSchema } from '../../src/schemas/analytics';
import { expectError, expectOk } from '../support/http';
import { addMember, createTenant, db, otherTenants, portalCall, type TestMember } from '../support/world';

/**
 * Known dataset: DE 3 active fans (one reinstated), NL 3, FR 1, one active fan without a country;
 * a suspended NL and a pending DE customer are not fans; another tenant's fans must not leak in.
 */
async function dataset() {
  const tenant = await createTenant();
  const row = (tenantId: string, countryCode: string | null, status: CustomerStatus, createdAt: string) => {
    const id = newId('cus');
    return { id, tenantId, externalId: id, countryCode, status, createdAt };
  };
  await db(tenant.id).insert(customers).values([
    row(tenant.id, 'DE', 'active', '2026-01-01T08:00:00.000Z'),
    row(tenant.id, 'DE', 'active', '2026-01-05T00:00:00.000Z'),
    row(tenant.id, 'DE', 'reinstated', '2026-01-10T23:59:59.999Z'),
    row(tenant.id, 'NL', 'active', '2026-01-02T08:00:00.000Z'),
    row(tenant.id, 'NL', 'active', '2026-01-06T08:00:00.000Z'),
    row(tenant.id, 'NL', 'active', '2026-01-11T08:00:00.000Z'),
    row(tenant.id, 'FR', 'active', '2026-01-03T08:00:00.000Z'),
    row(tenant.id, 'NL', 'suspended', '2026-01-04T08:00:00.000Z'),
    row(tenant.id, 'DE', 'pending', '2026-01-04T08:00:00.000Z'),
    row(tenant.id, null, 'active', '2026-01-07T08:00:00.000Z'),
  ]);
  // Other tenants' fans on another shard and on the tenant's (there only the query's tenant filter keeps them out).
  for (const other of await otherTenants(tenant.id)) {
    await db(other.id).insert(customers).values([row(other.id, 'FR', 'active', '2026-01-03T08:00:00.000Z'), row(other.id, 'FR', 'active', '2026-01-03T08:00:00.000Z')]);
  }
  return { tenant };
}

async function topCountries(member: TestMember, tenantId: string, query = '') {
  return expectOk(await portalCall(member, 'GET', `/api/v1/tenant/${tenantId}/analytics/top-countries${query}`), 200, topCountriesSchema);
}

const ranking = (data: { items: { country: { code: string }; active_fans_count: number; share_of_tenant_customers_percent: number }[] }) =>
  data.items.map((item) => [item.country.code, item.active_fans_count, item.share_of_tenant_customers_percent]);

describe('GET /tenant/{t}/analytics/top-countries', () => {
  it('counts active and reinstated customers per country, highest first, ties by code; the total includes fans without a country', async () => {
    const { tenant } = await dataset();
    const viewer = await addMember(tenant.id, 'viewer');
    const data = await topCountries(viewer, tenant.id);
    expect(data.tenant_id).toBe(tenant.id);
    expect(data.total_active_tenant_customers).toBe(8);
    expect(ranking(data)).toEqual([
      ['DE', 3, 37.5],
      ['NL', 3, 37.5],
      ['FR', 1, 12.5],
    ]);
    expect(data.items[0]?.country).toEqual({ id: 'DE', code: 'DE', name: 'Germany', icon_url: 'https://flagcdn.com/de.svg', status: 'active' });
  });

  it('applies limit without changing the total', async () => {
    const { tenant } = await dataset();
    const data = await topCountries(tenant.owner, tenant.id, '?limit=2');
    expect(ranking(data)).toEqual([
      ['DE', 3, 37.5],
      ['NL', 3, 37.5],
    ]);
    expect(data.total_active_tenant_customers).toBe(8);
  });

  it('filters by from/to on the customer creation time, both ends inclusive', async () => {
    const { tenant } = await dataset();
    const data = await topCountries(tenant.owner, tenant.id, '?from=2026-01-05&to=2026-01-10');
    expect(data.total_active_tenant_customers).toBe(4);
    expect(ranking(data)).toEqual([
      ['DE', 2, 50],
      ['NL', 1, 25],
    ]);
    const exact = await topCountries(tenant.owner, tenant.id, '?from=2026-01-01T12:00:00Z&to=2026-01-03T08:00:00Z');
    expect(ranking(exact)).toEqual([
      ['FR', 1, 50],
      ['NL', 1, 50],
    ]);
  });

  it('answers an empty ranking for a tenant without customers', async () => {
    const tenant = await createTenant();
    expect(await topCountries(tenant.owner, tenant.id)).toEqual({ items: [], tenant_id: tenant.id, total_active_tenant_customers: 0 });
  });

  it.each(['?limit=0', '?limit=101', '?limit=abc', '?from=2026-01-32', '?to=2026-02-30', '?from=2026-01-10&to=2026-01-09'])('answers 422 for %s', async (query) => {
    const tenant = await createTenant();
    expectError(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/analytics/top-countries${query}`), 422, 'VALIDATION_FAILED');
  });

  it('answers 404 to a member of another tenant (on another shard and on the same one)', async () => {
    const { tenant } = await dataset();
    for (const { owner: outsider } of await otherTenants(tenant.id)) {
      expectError(await portalCall(outsider, 'GET', `/api/v1/tenant/${tenant.id}/analytics/top-countries`), 404, 'NOT_FOUND');
    }
  });
});
