import { describe, expect, it } from 'vitest';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { tierRuleSchema } from '../../src/schemas/tier';
import { addXp, createCustomerViaApi, createTierViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { createCohort, memberIds, rulesOf } from '../support/segments';
import { createEndpoint, eventsOf, newInbox } from '../support/webhooks';
import { createTenant, createTestApiKey, gatewayCall, portalCall } from '../support/world';

async function world() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const customer = await createCustomerViaApi(key);
  const read = async () => expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/customers/${customer.id}`), 200, customerSchema);
  return { tenant, key, customer, read };
}

describe("the customer record's tier", () => {
  it('is null while the tenant has no tier the customer reaches', async () => {
    const { tenant, read } = await world();
    expect((await read()).tier).toBeNull();
    await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    expect((await read()).tier).toBeNull();
  });

  it('is the tier with the highest threshold not above lifetime_xp, moving as XP is earned', async () => {
    const { tenant, customer, read } = await world();
    const bronze = await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
    const silver = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 500);

    expect((await read()).tier).toEqual({ id: bronze.id, tier_name: 'Bronze' });
    await addXp(tenant.id, customer.id, 100);
    expect(await read()).toMatchObject({ xp_balance: '100', lifetime_xp: '100', tier: { id: silver.id, tier_name: 'Silver' } });
    await addXp(tenant.id, customer.id, 450, 'xp_bonus');
    expect((await read()).tier).toEqual({ id: gold.id, tier_name: 'Gold' });
    // Spending or a negative adjustment lowers the balance, never lifetime XP, so the tier stays.
    await addXp(tenant.id, customer.id, -500, 'xp_redeem');
    await addXp(tenant.id, customer.id, -20, 'xp_admin_adjust');
    expect(await read()).toMatchObject({ xp_balance: '30', lifetime_xp: '550', tier: { id: gold.id } });
  });

  it('follows tier edits and deletions at once, in lists as in single reads', async () => {
    const { tenant, key, customer, read } = await world();
    await addXp(tenant.id, customer.id, 300);
    const silver = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 500);
    expect((await read()).tier?.id).toBe(silver.id);

    const lowerGold = { tier_name: 'Gold', min_xp_threshold: 250, benefits_description: '', color: '', icon: '' };
    expectOk(await portalCall(tenant.owner, 'PUT', `/api/v1/tenant/${tenant.id}/tiers/${gold.id}`, lowerGold), 200, successFlagSchema);
    expect((await read()).tier?.id).toBe(gold.id);
    const list = expectOk(await gatewayCall(key, 'GET', '/api/v1/gateway/customers'), 200, pageSchema(customerSchema));
    expect(list.items[0]?.tier).toEqual({ id: gold.id, tier_name: 'Gold' });

    expectOk(await portalCall(tenant.owner, 'DELETE', `/api/v1/tenant/${tenant.id}/tiers/${gold.id}`), 200, successFlagSchema);
    expect((await read()).tier?.id).toBe(silver.id);
  });

  it('is one placement everywhere: among tiers of one threshold the first listed places the customer, in the record, in cohorts and in events', async () => {
    const { tenant, customer, read } = await world();
    await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
    const twins = [await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100), await createTierViaApi(tenant.owner, tenant.id, 'Argent', 100)];
    await createTierViaApi(tenant.owner, tenant.id, 'Gold', 500);
    // The tier list orders equal thresholds oldest first: the rule the placement follows (src/db/sql/tier-placement.sql).
    const listed = expectOk(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/tiers`), 200, pageSchema(tierRuleSchema));
    const [placing, placingNone] = listed.items.filter((tier) => twins.some((twin) => twin.id === tier.id));
    const cohortOf = (tierId = '') => createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'tier', op: 'eq', value: tierId }));
    const [placingCohort, placingNoneCohort] = [await cohortOf(placing?.id), await cohortOf(placingNone?.id)];
    await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.tier_changed']);

    await addXp(tenant.id, customer.id, 150);
    expect((await read()).tier).toEqual({ id: placing?.id, tier_name: placing?.tier_name });
    expect(await memberIds(tenant.owner, tenant.id, placingCohort.id)).toEqual([customer.id]);
    expect(await memberIds(tenant.owner, tenant.id, placingNoneCohort.id)).toEqual([]);
    await addXp(tenant.id, customer.id, 400);
    const previous = (await eventsOf(tenant.id)).map((event) => event.previousAttributes);
    expect(previous.at(-1)).toEqual({ tier: { id: placing?.id, tier_name: placing?.tier_name } });
  });
});
