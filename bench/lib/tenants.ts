/**
 * The two bench tenants, created through the running Worker's HTTP API as a customer would (the
 * portal routes with a token minted by the bench's own key): tenant, API key, the demo tiers,
 * attributes and cohorts (scripts/lib/demo-data.ts), the 1-XP bench reward the write routes redeem,
 * the reward the loaded redemptions are of, and the 20 earning rules the events route evaluates
 * (bench/lib/earning-rules.ts). Customers and their history are bulk-loaded after.
 */
import { apiCall, dataOf, type ApiResponse, type CallOptions } from '../../scripts/lib/api-client';
import { ATTRIBUTES, COHORTS, REWARDS, TIERS, type TierName } from '../../scripts/lib/demo-data';
import type { AttributeDefinition } from './dataset';
import { benchEarningRules } from './earning-rules';

export type TenantName = 'small' | 'large';

export type CreatedTenant = {
  id: string;
  slug: string;
  apiKey: { keyId: string; secret: string };
  benchRewardId: string;
  redeemedReward: { id: string; xpCost: number };
  attributes: AttributeDefinition[];
  cohortIds: string[];
};

async function must<T>(label: string, method: string, path: string, options: CallOptions): Promise<T> {
  const res: ApiResponse = await apiCall(method, path, options);
  const data = dataOf<T>(res);
  if (data === undefined) throw new Error(`${label}: ${method} ${res.path} answered ${res.status} ${res.text.slice(0, 500)}`);
  return data;
}

/** Creates tenant `bench-<name>` and its programme; throws naming the step that failed. */
export async function createBenchTenant(token: string, name: TenantName): Promise<CreatedTenant> {
  const slug = `bench-${name}`;
  const tenant = await must<{ id: string }>(`tenant ${name}`, 'POST', '/tenants', { token, body: { name: `Bench ${name}`, slug } });
  const base = `/tenant/${tenant.id}`;
  const key = await must<{ key_id: string; secret: string }>('API key', 'POST', `${base}/api-keys`, { token, body: { name: 'Bench load generator' } });
  const tierIds = new Map<TierName, string>();
  for (const tier of TIERS) tierIds.set(tier.tier_name, (await must<{ id: string }>(`tier ${tier.tier_name}`, 'POST', `${base}/tiers`, { token, body: tier })).id);

  const benchReward = await must<{ id: string }>('bench reward', 'POST', `${base}/rewards`, {
    token,
    body: { title: 'Bench reward', description: 'Costs 1 XP, never runs out', xp_cost: '1', status: 'active' },
  });
  const coffee = REWARDS[0];
  if (!coffee) throw new Error('scripts/lib/demo-data.ts has no rewards');
  const redeemed = await must<{ id: string }>('redeemed reward', 'POST', `${base}/rewards`, {
    token,
    body: { title: coffee.title, description: coffee.description, xp_cost: coffee.xp_cost, status: 'active' },
  });

  const attributes: AttributeDefinition[] = [];
  for (const attribute of ATTRIBUTES) {
    const created = await must<{ id: string }>(`attribute ${attribute.key}`, 'POST', `${base}/attributes`, { token, body: attribute });
    attributes.push({ id: created.id, key: attribute.key, type: attribute.type });
  }
  // Before the load, so the cohort triggers keep memberships as customers arrive (as in production).
  const cohortIds: string[] = [];
  for (const cohort of COHORTS) cohortIds.push((await must<{ id: string }>(`cohort ${cohort.name}`, 'POST', `${base}/cohorts`, { token, body: cohort })).id);
  const [cohortId] = cohortIds;
  if (!cohortId) throw new Error('scripts/lib/demo-data.ts has no cohorts');
  for (const rule of benchEarningRules({ tierIds, cohortId })) await must(`earning rule "${rule.name}"`, 'POST', `${base}/earning-rules`, { token, body: rule });

  return {
    id: tenant.id,
    slug,
    apiKey: { keyId: key.key_id, secret: key.secret },
    benchRewardId: benchReward.id,
    redeemedReward: { id: redeemed.id, xpCost: Number(coffee.xp_cost) },
    attributes,
    cohortIds,
  };
}
