import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rewards } from '../../src/db/schema';
import { successFlagSchema } from '../../src/lib/envelope';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { tierRuleSchema } from '../../src/schemas/tier';
import { createTierViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { addMember, createPerson, createTenant, db, otherTenants, portalCall } from '../support/world';

const tierPage = pageSchema(tierRuleSchema);
const gold = { tier_name: 'Gold', min_xp_threshold: 1000, benefits_description: 'Free shipping', color: '#FFD700', icon: 'https://cdn.example.com/tiers/gold.svg' };
const base = (tenantId: string) => `/api/v1/tenant/${tenantId}/tiers`;

describe('POST /tenant/{t}/tiers', () => {
  it('creates a tier rule (201) with the threshold as a string and the tenant brief', async () => {
    const tenant = await createTenant();
    const tier = expectOk(await portalCall(tenant.owner, 'POST', base(tenant.id), gold), 201, tierRuleSchema);
    expect(tier).toMatchObject({
      tenant_id: tenant.id,
      tier_name: 'Gold',
      min_xp_threshold: '1000',
      benefits_description: 'Free shipping',
      color: '#FFD700',
      icon: 'https://cdn.example.com/tiers/gold.svg',
      tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug },
    });
  });

  it('needs only tier_name and min_xp_threshold; the rest defaults to ""', async () => {
    const tenant = await createTenant();
    const tier = await createTierViaApi(tenant.owner, tenant.id, 'Basic', 0);
    expect(tier).toMatchObject({ min_xp_threshold: '0', benefits_description: '', color: '', icon: '' });
  });

  it('refuses a tier_name the tenant already has (409), but another tenant (on another shard or the same one) may use it', async () => {
    const tenant = await createTenant();
    await createTierViaApi(tenant.owner, tenant.id, 'Gold', 100);
    const error = expectError(await portalCall(tenant.owner, 'POST', base(tenant.id), gold), 409, 'CONFLICT', 'A tier named "Gold" already exists');
    expect(error.errors[0]?.path).toBe('tier_name');
    // Beside the tenant on its shard too: the uniqueness is per tenant, not per database.
    for (const other of await otherTenants(tenant.id)) await createTierViaApi(other.owner, other.id, 'Gold', 100);
  });

  it.each([
    ['a negative threshold', { ...gold, min_xp_threshold: -1 }, 'min_xp_threshold'],
    ['a fractional threshold', { ...gold, min_xp_threshold: 10.5 }, 'min_xp_threshold'],
    ['a threshold as a string', { ...gold, min_xp_threshold: '1000' }, 'min_xp_threshold'],
    ['a missing tier_name', { min_xp_threshold: 5 }, 'tier_name'],
    ['a blank tier_name', { ...gold, tier_name: '   ' }, 'tier_name'],
    ['an unknown field', { ...gold, rank: 1 }, 'rank'],
  ])('rejects %s (422)', async (_label, body, path) => {
    const tenant = await createTenant();
    const error = expectError(await portalCall(tenant.owner, 'POST', base(tenant.id), body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toContain(path);
  });

  it('is for editors and up: a viewer gets 403', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    const editor = await addMember(tenant.id, 'editor');
    expectError(await portalCall(viewer, 'POST', base(tenant.id), gold), 403, 'FORBIDDEN');
    expectOk(await portalCall(editor, 'POST', base(tenant.id), gold), 201, tierRuleSchema);
  });

  it('answers 404 to a person who is not a member of the tenant', async () => {
    const tenant = await createTenant();
    const outsider = await createPerson();
    expectError(await portalCall(outsider, 'POST', base(tenant.id), gold), 404, 'NOT_FOUND', 'Tenant not found');
  });
});

describe('GET /tenant/{t}/tiers', () => {
  it('lists the tenant\'s tiers lowest threshold first, for any role, with paging (none of tenants on another shard or the same one)', async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) await createTierViaApi(other.owner, other.id, 'Foreign', 1);
    await createTierViaApi(tenant.owner, tenant.id, 'Gold', 1000);
    await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
    await createTierViaApi(tenant.owner, tenant.id, 'Silver', 250);
    const viewer = await addMember(tenant.id, 'viewer');

    const all = expectOk(await portalCall(viewer, 'GET', base(tenant.id)), 200, tierPage);
    expect(all.items.map((tier) => tier.tier_name)).toEqual(['Bronze', 'Silver', 'Gold']);
    expect(all).toMatchObject({ total_count: 3, page: 1, limit: 20, total_pages: 1, has_next_page: false });
    const second = expectOk(await portalCall(viewer, 'GET', `${base(tenant.id)}?limit=2&page=2`), 200, tierPage);
    expect(second).toMatchObject({ total_count: 3, page: 2, limit: 2, total_pages: 2, has_next_page: false });
    expect(second.items.map((tier) => tier.tier_name)).toEqual(['Gold']);
    for (const query of ['limit=0', 'limit=101', 'page=0']) {
      expectError(await portalCall(viewer, 'GET', `${base(tenant.id)}?${query}`), 422, 'VALIDATION_FAILED');
    }
  });

  it('filters by exact, case-sensitive tier_name, as the gateway does; never another tenant\'s tier of that name (on another shard or the same one)', async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) await createTierViaApi(other.owner, other.id, 'Silver', 1);
    const silver = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 250);
    await createTierViaApi(tenant.owner, tenant.id, 'Silver Plus', 300);
    const exact = expectOk(await portalCall(tenant.owner, 'GET', `${base(tenant.id)}?tier_name=Silver`), 200, tierPage);
    expect(exact.items).toEqual([silver]);
    expect(expectOk(await portalCall(tenant.owner, 'GET', `${base(tenant.id)}?tier_name=silver`), 200, tierPage)).toEqual({
      items: [],
      total_count: 0,
      page: 1,
      limit: 20,
      total_pages: 0,
      has_next_page: false,
    });
  });
});

describe('PUT /tenant/{t}/tiers/{tierId}', () => {
  it('replaces every field of the rule', async () => {
    const tenant = await createTenant();
    const tier = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    const replacement = { tier_name: 'Silver Plus', min_xp_threshold: 150, benefits_description: 'Priority support', color: '#c0c0c0', icon: 'https://cdn.example.com/tiers/silver-plus.svg' };
    const res = await portalCall(tenant.owner, 'PUT', `${base(tenant.id)}/${tier.id}`, replacement);
    expect(expectOk(res, 200, successFlagSchema)).toEqual({ success: true });
    const [after] = expectOk(await portalCall(tenant.owner, 'GET', base(tenant.id)), 200, tierPage).items;
    expect(after).toMatchObject({ id: tier.id, ...replacement, min_xp_threshold: '150', created_at: tier.created_at });
  });

  it('keeps its own name (no conflict with itself) but refuses another tier\'s name (409)', async () => {
    const tenant = await createTenant();
    await createTierViaApi(tenant.owner, tenant.id, 'Gold', 1000);
    const silver = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    const path = `${base(tenant.id)}/${silver.id}`;
    expectOk(await portalCall(tenant.owner, 'PUT', path, { ...gold, tier_name: 'Silver', min_xp_threshold: 120 }), 200, successFlagSchema);
    const error = expectError(await portalCall(tenant.owner, 'PUT', path, gold), 409, 'CONFLICT');
    expect(error.errors[0]?.path).toBe('tier_name');
  });

  it('requires every field, since it replaces the rule (422)', async () => {
    const tenant = await createTenant();
    const tier = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    for (const field of Object.keys(gold)) {
      const body: Record<string, unknown> = { ...gold };
      delete body[field];
      const error = expectError(await portalCall(tenant.owner, 'PUT', `${base(tenant.id)}/${tier.id}`, body), 422, 'VALIDATION_FAILED');
      expect(error.errors.map((entry) => entry.path)).toEqual([field]);
    }
  });

  it("answers 404 for an unknown tier and another tenant's tier (on another shard or the same one), and 403 to a viewer", async () => {
    const tenant = await createTenant();
    const own = await createTierViaApi(tenant.owner, tenant.id, 'Own', 5);
    expectError(await portalCall(tenant.owner, 'PUT', `${base(tenant.id)}/tier_missing`, gold), 404, 'NOT_FOUND', 'Tier not found');
    for (const other of await otherTenants(tenant.id)) {
      const foreign = await createTierViaApi(other.owner, other.id, 'Foreign', 5);
      expectError(await portalCall(tenant.owner, 'PUT', `${base(tenant.id)}/${foreign.id}`, gold), 404, 'NOT_FOUND', 'Tier not found');
      const [unchanged] = expectOk(await portalCall(other.owner, 'GET', base(other.id)), 200, tierPage).items;
      expect(unchanged?.tier_name).toBe('Foreign');
    }
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'PUT', `${base(tenant.id)}/${own.id}`, gold), 403, 'FORBIDDEN');
  });
});

describe('DELETE /tenant/{t}/tiers/{tierId}', () => {
  it('deletes the tier (200 {success: true})', async () => {
    const tenant = await createTenant();
    const tier = await createTierViaApi(tenant.owner, tenant.id, 'Gone', 5);
    const res = await portalCall(tenant.owner, 'DELETE', `${base(tenant.id)}/${tier.id}`);
    expect(expectOk(res, 200, successFlagSchema)).toEqual({ success: true });
    expect(expectOk(await portalCall(tenant.owner, 'GET', base(tenant.id)), 200, tierPage).total_count).toBe(0);
    expectError(await portalCall(tenant.owner, 'DELETE', `${base(tenant.id)}/${tier.id}`), 404, 'NOT_FOUND');
  });

  it('refuses while a reward requires the tier (409), and allows it once none does', async () => {
    const tenant = await createTenant();
    const tier = await createTierViaApi(tenant.owner, tenant.id, 'VIP', 500);
    const rewardId = newId('rwd');
    await db(tenant.id).insert(rewards).values({ id: rewardId, tenantId: tenant.id, title: 'Lounge access', xpCost: 100, minTierId: tier.id });
    const path = `${base(tenant.id)}/${tier.id}`;
    expectError(await portalCall(tenant.owner, 'DELETE', path), 409, 'CONFLICT', /minimum tier of 1 reward/);
    expect(expectOk(await portalCall(tenant.owner, 'GET', base(tenant.id)), 200, tierPage).total_count).toBe(1);
    await db(tenant.id).delete(rewards).where(eq(rewards.id, rewardId));
    expectOk(await portalCall(tenant.owner, 'DELETE', path), 200, successFlagSchema);
  });

  it("answers 404 for another tenant's tier (on another shard or the same one) and 403 to a viewer", async () => {
    const tenant = await createTenant();
    const own = await createTierViaApi(tenant.owner, tenant.id, 'Own', 5);
    for (const other of await otherTenants(tenant.id)) {
      const foreign = await createTierViaApi(other.owner, other.id, 'Foreign', 5);
      expectError(await portalCall(tenant.owner, 'DELETE', `${base(tenant.id)}/${foreign.id}`), 404, 'NOT_FOUND', 'Tier not found');
      expect(expectOk(await portalCall(other.owner, 'GET', base(other.id)), 200, tierPage).total_count).toBe(1);
    }
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'DELETE', `${base(tenant.id)}/${own.id}`), 403, 'FORBIDDEN');
  });
});
