import fc from 'fast-check';
import { internalTransactionSchema } from '../../../src/schemas/internal-transaction';
import { redemptionSchema } from '../../../src/schemas/redemption';
import { createCustomerViaApi, createTierViaApi } from '../../support/customers';
import { expectOk } from '../../support/http';
import { createCustomer } from '../../support/ledger';
import { customerWithXp, insertReward, insertTier, redeem } from '../../support/rewards';
import { createCohort, defineAttribute, rulesOf, setValues } from '../../support/segments';
import { portalToken } from '../../support/tokens';
import { addMember, createTenant, createTenantBeside, createTestApiKey, gatewayCall, type TestTenant } from '../../support/world';
import { insertAssetRow } from '../../onchain-assets/helpers';
import type { Hints } from './arbitraries';
import type { Operation } from './document';
import type { Credentials } from './send';

/**
 * One world per run: a tenant with real rows of every resource, the credentials the requests
 * use, and a second tenant whose ids must never be reachable through the first.
 */
export type FuzzWorld = Credentials & {
  tenant: TestTenant;
  /** New portal tokens for the owner and the viewer: a long run outlives a token (10 minutes). */
  refreshTokens(): Promise<void>;
  /** Ids of the other tenant: a request naming one (path or body) must never succeed. */
  foreignIds: Set<string>;
  hintsFor(op: Operation): Hints;
};

const oneOf = (values: readonly string[]) => fc.constantFrom(...values);

/** Another tenant's rows, on the fuzzed tenant's shard: only the routes' tenant filters keep them out of reach. */
async function seedForeign(tenantId: string) {
  const foreign = await createTenantBeside(tenantId, 'foreign');
  return {
    tenantId: foreign.id,
    customer: await createCustomer(foreign.id),
    tier: await insertTier(foreign.id, 'Foreign', 0),
    reward: (await insertReward(foreign.id)).id,
    asset: (await insertAssetRow(foreign.id)).id,
  };
}

async function seedCustomers(world: { tenant: TestTenant; key: Credentials['key'] }) {
  const viaApi = [
    await createCustomerViaApi(world.key, { email: 'ada@example.com', country_code: 'DE', username: 'ada' }),
    await createCustomerViaApi(world.key, { email: 'grace@example.com', country_code: 'US' }),
  ];
  const richest = await customerWithXp(world.tenant.id, 5000);
  const second = await customerWithXp(world.tenant.id, 800);
  const suspended = await createCustomer(world.tenant.id, { status: 'suspended', xp: 50 });
  return { ids: [...viaApi.map((c) => c.id), richest, second, suspended], richest, second, externalIds: viaApi.map((c) => c.external_id), emails: ['ada@example.com', 'grace@example.com'] };
}

export async function seedWorld(): Promise<FuzzWorld> {
  const tenant = await createTenant('fuzz');
  const owner = tenant.owner;
  const viewer = await addMember(tenant.id, 'viewer');
  const key = await createTestApiKey(tenant.id);
  // Only these may be removed, demoted or revoked: the owner, the viewer and the signing key stay usable.
  const spareMembers = await Promise.all((['admin', 'editor', 'viewer'] as const).map((role) => addMember(tenant.id, role)));
  const spareKeys = [await createTestApiKey(tenant.id), await createTestApiKey(tenant.id)];
  const customers = await seedCustomers({ tenant, key });
  const { richest, second } = customers;
  const tiers = [await createTierViaApi(owner, tenant.id, 'Bronze', 0), await createTierViaApi(owner, tenant.id, 'Gold', 1000)];
  const [plenty, scarce, draft] = [await insertReward(tenant.id), await insertReward(tenant.id, { stock: 1 }), await insertReward(tenant.id, { status: 'draft' })];
  const assets = [await insertAssetRow(tenant.id, { key: 'points' }), await insertAssetRow(tenant.id, { key: 'badge', type: 'erc721' })];
  const attributeKeys = ['favorite_color', 'shoe_size', 'tags'];
  const attributes = [
    await defineAttribute(owner, tenant.id, 'favorite_color', 'string'),
    await defineAttribute(owner, tenant.id, 'shoe_size', 'number'),
    await defineAttribute(owner, tenant.id, 'tags', 'string_list'),
  ];
  await setValues(owner, tenant.id, richest, { favorite_color: 'blue', shoe_size: 42 });
  const cohorts = [
    await createCohort(owner, tenant.id, rulesOf('and', { type: 'status', op: 'eq', value: 'active' })),
    await createCohort(owner, tenant.id, rulesOf('or', { type: 'attribute', key: 'favorite_color', op: 'eq', value: 'blue' }, { type: 'lifetime_xp', op: 'gte', value: '100' })),
  ];
  const redemptions = [
    expectOk(await redeem(key, richest, plenty.id), 201, redemptionSchema).id,
    expectOk(await redeem(key, second, scarce.id), 201, redemptionSchema).id,
  ];
  const earned = await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: second, type: 'xp_bonus', amount: '25', notes: 'seed' } });
  const transactions = [expectOk(earned, 201, internalTransactionSchema).id];
  const foreign = await seedForeign(tenant.id);

  const customerIds = [...customers.ids, foreign.customer];
  const tierIds = [...tiers.map((t) => t.id), foreign.tier];
  const rewardIds = [plenty.id, scarce.id, draft.id, foreign.reward];
  const assetIds = [...assets.map((a) => a.id), foreign.asset];
  const common: Hints = {
    tenantId: fc.oneof({ arbitrary: fc.constant(tenant.id), weight: 12 }, { arbitrary: fc.constant(foreign.tenantId), weight: 1 }),
    userId: oneOf(customerIds),
    customer_id: oneOf(customerIds),
    user_id: oneOf(customerIds),
    tierId: oneOf(tierIds),
    min_tier_id: oneOf(tierIds),
    rewardId: oneOf(rewardIds),
    reward_id: oneOf(rewardIds),
    onchain_asset_id: oneOf(assetIds),
    redemption_id: oneOf(redemptions),
    internal_transaction_id: oneOf(transactions),
    cohortId: oneOf(cohorts.map((c) => c.id)),
    attributeId: oneOf(attributes),
    key: oneOf([...attributeKeys, 'points', 'badge']),
    'values:key': oneOf(attributeKeys),
    tier_name: oneOf(tiers.map((t) => t.tier_name)),
    external_id: oneOf(customers.externalIds),
    email: oneOf(customers.emails),
    chain_id: fc.constant(31337),
    'x-idempotency-key': fc.noBias(fc.uuid()),
  };
  const hintsFor = (op: Operation): Hints => {
    if (op.path.includes('/members/')) return { ...common, userId: oneOf(spareMembers.map((m) => m.accountId)) };
    if (op.path.includes('/api-keys/')) return { ...common, id: oneOf(spareKeys.map((k) => k.id)) };
    if (op.path.includes('/onchain-assets/')) return { ...common, id: oneOf(assetIds) };
    return common;
  };
  const foreignIds = new Set([foreign.tenantId, foreign.customer, foreign.tier, foreign.reward, foreign.asset]);
  const refreshTokens = async () => {
    for (const member of [owner, viewer]) {
      // The same claims as at creation (test/support/world.ts: username is the email's local part), so sign-in changes nothing.
      member.token = await portalToken({ sub: member.sub, email: member.email, username: member.email.split('@')[0] });
    }
  };
  return { tenant, owner, viewer, key, foreignIds, hintsFor, refreshTokens };
}
