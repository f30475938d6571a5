/**
 * Seeds a demo tenant through the HTTP API of the running dev server, so the data goes through
 * the real routes' validation and rules. Idempotent: running it again finds what exists and adds
 * only what is missing. A step whose route answers an error prints the status and body, and the
 * seed goes on with what it can do. The onchain part (scripts/lib/seed-onchain.ts) runs only on a
 * chain of this machine; the point lifecycle (scripts/lib/seed-points.ts) is switched on after it.
 *
 *   npm run seed            (npm run dev runs it after start-up)
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { apiCall, baseUrl, dataOf, errorCodeOf, type GatewayKey } from './lib/api-client';
import { ensureDevSetup, readDemoState, readDevVars, useDemoServer, writeDemoState, type DemoState, type DevSigningKey } from './lib/dev-files';
import { demoChainId } from './lib/local-chain';
import { mintPortalToken } from './lib/portal-token';
import { ATTRIBUTES, COHORTS, CUSTOMERS, REWARDS, TIERS, type DemoCustomer } from './lib/demo-data';
import { seedOnchain } from './lib/seed-onchain';
import { seedPoints } from './lib/seed-points';
import { seedProgram } from './lib/seed-program';
import { listAll, onceKey, Report } from './lib/seed-report';

export const DEMO_ADMIN_EMAIL = 'demo-admin@example.com';
const DEMO_TENANT = { name: 'Demo Coffee Co.', slug: 'demo-coffee' };

type Tier = { id: string; tier_name: string };
type Reward = { id: string; title: string };
type Customer = { id: string; external_id: string; xp_balance: string; lifetime_xp: string; tier?: { tier_name: string } | null };
async function ensureTenant(token: string, state: DemoState, report: Report) {
  const created = await apiCall('POST', '/tenants', { token, body: DEMO_TENANT });
  const tenant = dataOf<{ id: string; name: string; slug: string }>(created);
  if (tenant) {
    report.ok(`tenant "${tenant.name}" created`, tenant.id);
    return { id: tenant.id, name: tenant.name, slug: tenant.slug };
  }
  if (created.status !== 409) {
    report.fail('create tenant', created);
    return undefined;
  }
  const me = await apiCall('GET', '/user/me', { token });
  const membership = dataOf<{ memberships: { tenant: { id: string; name: string; slug: string } }[] }>(me)?.memberships.find(
    (m) => m.tenant.slug === DEMO_TENANT.slug,
  );
  if (membership) {
    report.ok(`tenant "${membership.tenant.name}" already exists`, membership.tenant.id);
    return membership.tenant;
  }
  if (state.tenant?.slug === DEMO_TENANT.slug) {
    report.ok(`tenant "${state.tenant.name}" already exists (from .dev/demo.json)`, state.tenant.id);
    return state.tenant;
  }
  report.fail(`slug ${DEMO_TENANT.slug} is taken and the demo admin is not a member`, me.ok ? created : me);
  return undefined;
}

/** The saved demo key if it still authenticates for this tenant, else a new one. */
async function ensureApiKey(token: string, tenantId: string, state: DemoState, report: Report) {
  const saved = state.tenant?.id === tenantId ? state.apiKey : undefined;
  if (saved) {
    const probe = await apiCall('GET', '/gateway/internal-transactions/itx_seed_probe', { gatewayKey: saved });
    if (probe.status === 200 || probe.status === 404) {
      report.ok('API key from .dev/demo.json still valid', saved.keyId);
      return saved;
    }
    report.skip('API key from .dev/demo.json', `rejected (${probe.status} ${errorCodeOf(probe) ?? ''}), creating a new one`);
  }
  const res = await apiCall('POST', `/tenant/${tenantId}/api-keys`, { token, body: { name: 'Demo backend', label: 'created by npm run dev' } });
  const key = dataOf<{ id: string; key_id: string; secret: string }>(res);
  if (!key) {
    report.fail('create API key', res);
    return undefined;
  }
  report.ok('API key created', key.key_id);
  return { id: key.id, keyId: key.key_id, secret: key.secret };
}

async function ensureTiers(token: string, tenantId: string, report: Report): Promise<Map<string, string>> {
  for (const tier of TIERS) {
    if (report.routeMissing('POST tiers')) break;
    const res = await apiCall('POST', `/tenant/${tenantId}/tiers`, { token, body: tier });
    if (res.status === 201) report.ok(`tier ${tier.tier_name} created`);
    else if (res.status === 409) report.ok(`tier ${tier.tier_name} already exists`);
    else report.fail(`create tier ${tier.tier_name}`, res, 'POST tiers');
  }
  const { res, items } = await listAll<Tier>(`/tenant/${tenantId}/tiers`, token);
  if (!items) report.fail('list tiers', res);
  return new Map((items ?? []).map((tier) => [tier.tier_name, tier.id]));
}

async function ensureRewards(token: string, tenantId: string, tierIds: Map<string, string>, report: Report): Promise<Map<string, string>> {
  const listed = await listAll<Reward>(`/tenant/${tenantId}/rewards`, token);
  const ids = new Map((listed.items ?? []).map((reward) => [reward.title, reward.id]));
  for (const reward of REWARDS) {
    if (report.routeMissing('POST rewards')) break;
    if (ids.has(reward.title)) {
      report.ok(`reward "${reward.title}" already exists`);
      continue;
    }
    const minTierId = reward.min_tier ? tierIds.get(reward.min_tier) : undefined;
    if (reward.min_tier && !minTierId) {
      report.skip(`reward "${reward.title}"`, `needs tier ${reward.min_tier}, which is missing`);
      continue;
    }
    const body = {
      title: reward.title,
      description: reward.description,
      xp_cost: reward.xp_cost,
      status: 'active',
      ...(minTierId ? { min_tier_id: minTierId } : {}),
      ...(reward.stock !== undefined ? { stock: reward.stock } : {}),
    };
    const res = await apiCall('POST', `/tenant/${tenantId}/rewards`, { token, body });
    const created = dataOf<Reward>(res);
    if (created) {
      ids.set(reward.title, created.id);
      report.ok(`reward "${reward.title}" created`, `${reward.xp_cost} XP`);
    } else report.fail(`create reward "${reward.title}"`, res, 'POST rewards');
  }
  return ids;
}

async function ensureAttributes(token: string, tenantId: string, report: Report): Promise<void> {
  for (const attribute of ATTRIBUTES) {
    if (report.routeMissing('POST attributes')) break;
    const res = await apiCall('POST', `/tenant/${tenantId}/attributes`, { token, body: attribute });
    if (res.status === 201) report.ok(`attribute ${attribute.key} (${attribute.type}) defined`);
    else if (res.status === 409) report.ok(`attribute ${attribute.key} already defined`);
    else report.fail(`define attribute ${attribute.key}`, res, 'POST attributes');
  }
}

async function seedCustomer(key: GatewayKey, demo: DemoCustomer, rewardIds: Map<string, string>, report: Report): Promise<Customer | undefined> {
  const profile = { external_id: demo.external_id, email: demo.email, username: demo.username, country_code: demo.country_code };
  // Create-or-update by external_id is idempotent by itself: a fresh key returns the current record.
  const upsert = await apiCall('POST', '/gateway/customers', { gatewayKey: key, body: profile, idempotencyKey: `seed:customer:${randomUUID()}` });
  let customer = dataOf<Customer>(upsert);
  if (!customer) {
    report.fail(`customer ${demo.external_id}`, upsert);
    return undefined;
  }
  const planned = demo.xp.reduce((sum, entry) => sum + Number(entry.amount), 0);
  const alreadyEarned = Number(customer.lifetime_xp);
  const alreadySpent = Number(customer.xp_balance) < alreadyEarned;

  let xpFailed = false;
  if (report.routeMissing('POST xp')) {
    xpFailed = true;
  } else if (alreadyEarned >= planned) {
    report.ok(`customer ${demo.username} (${demo.country_code}) already has ${customer.lifetime_xp} lifetime XP`);
  } else {
    for (const [index, entry] of demo.xp.entries()) {
      const body = { user_id: customer.id, ...entry };
      const res = await apiCall('POST', '/gateway/xp', { gatewayKey: key, body, idempotencyKey: onceKey(`xp:${demo.external_id}:${index}`, body) });
      if (res.status !== 201) {
        report.fail(`${entry.type} ${entry.amount} XP for ${demo.username}`, res, 'POST xp');
        xpFailed = true;
        break;
      }
    }
    if (!xpFailed) report.ok(`customer ${demo.username} (${demo.country_code}) earned ${planned} XP`, demo.xp.map((e) => `${e.type} ${e.amount}`).join(', '));
  }

  if (demo.redeem && !xpFailed && !report.routeMissing('POST redemptions')) {
    const rewardId = rewardIds.get(demo.redeem);
    if (alreadySpent) report.ok(`${demo.username} already redeemed`);
    else if (!rewardId) {
      if (!report.routeMissing('POST rewards')) report.skip(`${demo.username} redeems "${demo.redeem}"`, 'reward missing');
    }
    else {
      const body = { user_id: customer.id, reward_id: rewardId };
      const res = await apiCall('POST', '/gateway/redemptions', { gatewayKey: key, body, idempotencyKey: onceKey(`redeem:${demo.external_id}`, body) });
      if (res.status === 201) report.ok(`${demo.username} redeemed "${demo.redeem}"`);
      else report.fail(`${demo.username} redeems "${demo.redeem}"`, res, 'POST redemptions');
    }
  }

  const values = demo.attributes;
  if (report.routeMissing('PUT attributes')) return customer;
  const attrs = await apiCall('PUT', `/gateway/customers/${customer.id}/attributes`, { gatewayKey: key, body: { values }, idempotencyKey: `seed:attributes:${randomUUID()}` });
  if (attrs.ok) report.ok(`${demo.username}'s attributes set`, Object.keys(values).join(', '));
  else report.fail(`set ${demo.username}'s attributes`, attrs, 'PUT attributes');

  const fresh = dataOf<Customer>(await apiCall('GET', `/gateway/customers/${customer.id}`, { gatewayKey: key }));
  if (fresh) customer = fresh;
  return customer;
}

async function ensureCohorts(token: string, tenantId: string, report: Report): Promise<void> {
  const listed = await listAll<{ id: string; name: string; member_count?: number }>(`/tenant/${tenantId}/cohorts`, token);
  for (const cohort of COHORTS) {
    const existing = listed.items?.find((item) => item.name === cohort.name);
    if (existing) {
      report.ok(`cohort "${cohort.name}" already exists`, `${existing.member_count ?? '?'} members`);
      continue;
    }
    const res = await apiCall('POST', `/tenant/${tenantId}/cohorts`, { token, body: cohort });
    const created = dataOf<{ id: string; member_count?: number }>(res);
    if (created) report.ok(`cohort "${cohort.name}" created`, `${created.member_count ?? '?'} members`);
    else report.fail(`create cohort "${cohort.name}"`, res);
  }
}

export type SeedResult = { state: DemoState; failures: number };

/** A customer of the demo and its newest transaction, so the summary and README show requests that work when pasted. */
async function sampleIds(gatewayKey: GatewayKey, customerIds: Map<string, string>): Promise<DemoState['sample']> {
  const [customerId] = customerIds.values();
  if (!customerId) return undefined;
  const newest = await apiCall('GET', `/gateway/internal-transactions?user_id=${customerId}&limit=1`, { gatewayKey });
  return { customerId, transactionId: dataOf<{ items: { id: string }[] }>(newest)?.items[0]?.id };
}

/**
 * @example const { state } = await seed(key); // state.tenant, state.apiKey
 */
export async function seed(signingKey: DevSigningKey): Promise<SeedResult> {
  const report = new Report();
  const state: DemoState = { ...readDemoState(), baseUrl: baseUrl(), adminEmail: DEMO_ADMIN_EMAIL };
  console.log(`Seeding the demo tenant through ${baseUrl()}/api/v1 …`);
  const token = await mintPortalToken(signingKey, { email: DEMO_ADMIN_EMAIL, username: 'demo-admin' });

  const me = await apiCall('GET', '/user/me', { token });
  if (me.ok) report.ok(`super_admin account ${DEMO_ADMIN_EMAIL}`, dataOf<{ id: string }>(me)?.id ?? '');
  else report.fail(`account ${DEMO_ADMIN_EMAIL}`, me);

  const tenant = await ensureTenant(token, state, report);
  if (!tenant) {
    writeDemoState(state);
    return { state, failures: report.failures };
  }
  if (state.tenant?.id !== tenant.id) delete state.apiKey;
  const apiKey = await ensureApiKey(token, tenant.id, state, report);
  state.tenant = tenant;
  if (apiKey) state.apiKey = apiKey;
  writeDemoState(state);

  const tierIds = await ensureTiers(token, tenant.id, report);
  const rewardIds = await ensureRewards(token, tenant.id, tierIds, report);
  await ensureAttributes(token, tenant.id, report);

  const customerIds = new Map<string, string>();
  if (!apiKey) report.skip('customers, XP and redemptions', 'no API key');
  else {
    for (const demo of CUSTOMERS) {
      const customer = await seedCustomer(apiKey, demo, rewardIds, report);
      if (customer) {
        customerIds.set(demo.external_id, customer.id);
        console.log(`      ${customer.id}: balance ${customer.xp_balance}, lifetime ${customer.lifetime_xp}, tier ${customer.tier?.tier_name ?? 'none'}`);
      }
    }
  }

  await ensureCohorts(token, tenant.id, report);
  await seedProgram({ token, tenantId: tenant.id, gatewayKey: apiKey, tierIds, customerIds, report });
  if (apiKey) state.sample = await sampleIds(apiKey, customerIds);
  writeDemoState(state);

  // Last, as a program adding its XP token later: the XP above is minted by the token's opening.
  const chainId = demoChainId(readDevVars());
  if (!apiKey) report.skip('onchain demo', 'no API key');
  else if (chainId === undefined) report.skip('onchain demo', 'CHAINS in .dev.vars names no chain on this machine (the seed never deploys on a remote chain)');
  else {
    console.log(`Onchain demo on chain ${chainId} (deploys, mints and burns settle through the queue; takes a few seconds) …`);
    state.onchain = await seedOnchain({ token, tenantId: tenant.id, gatewayKey: apiKey, chainId, customerIds, report });
    writeDemoState(state);
  }
  // After all of the above: a pending period would hold the XP credited there.
  state.points = await seedPoints({ token, tenantId: tenant.id, gatewayKey: apiKey, customerIds, report });
  writeDemoState(state);
  console.log(report.failures === 0 ? 'Seed complete.' : `Seed finished with ${report.failures} failed step(s) (see ✗ above).`);
  return { state, failures: report.failures };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // The server `npm run dev` runs (its --port), as `npm run gateway` finds it.
  useDemoServer();
  const { key } = await ensureDevSetup();
  try {
    const { state, failures } = await seed(key);
    if (state.apiKey) console.log(`\nAPI key id: ${state.apiKey.keyId}\nAPI secret: ${state.apiKey.secret}`);
    process.exitCode = failures === 0 ? 0 : 1;
  } catch (err) {
    console.error(`Seed failed: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}. Is \`npm run dev\` running?`);
    process.exitCode = 1;
  }
}
