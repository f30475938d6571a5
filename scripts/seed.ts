/**
 * Seeds a demo tenant through the HTTP API of the running dev server, so the data goes through
 * the real routes' validation and rules. Idempotent: running it again finds what exists and adds
 * only what is missing. A step whose route answers an error prints the status and body, and the
 * seed goes on with what it can do.
 *
 *   npm run seed            (npm run dev runs it after start-up)
 */
import { createHash, randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { apiCall, baseUrl, dataOf, errorCodeOf, type ApiResponse, type GatewayKey } from './lib/api-client';
import { ensureDevSetup, readDemoState, writeDemoState, type DemoState, type DevSigningKey } from './lib/dev-files';
import { mintPortalToken } from './lib/portal-token';

export const DEMO_ADMIN_EMAIL = 'demo-admin@example.com';
const DEMO_TENANT = { name: 'Demo Coffee Co.', slug: 'demo-coffee' };

const TIERS = [
  { tier_name: 'Bronze', min_xp_threshold: 0, benefits_description: 'Member prices and a birthday treat', color: '#cd7f32', icon: 'medal-bronze' },
  { tier_name: 'Silver', min_xp_threshold: 500, benefits_description: 'Free size upgrade and early access to seasonal drinks', color: '#c0c0c0', icon: 'medal-silver' },
  { tier_name: 'Gold', min_xp_threshold: 2000, benefits_description: 'Free drink every month, invitations to tastings', color: '#ffd700', icon: 'medal-gold' },
] as const;

type TierName = (typeof TIERS)[number]['tier_name'];

const REWARDS: { title: string; description: string; xp_cost: string; min_tier?: TierName; stock?: number }[] = [
  { title: 'Free coffee', description: 'Any hot drink, any size', xp_cost: '150' },
  { title: '10% off your next order', description: 'One-time discount code', xp_cost: '400' },
  { title: 'Canvas tote bag', description: 'Limited edition tote', xp_cost: '800', min_tier: 'Silver', stock: 50 },
  { title: 'VIP tasting evening', description: 'Two seats at the roastery tasting', xp_cost: '2500', min_tier: 'Gold', stock: 20 },
];

const ATTRIBUTES = [
  { key: 'favorite_drink', type: 'string' },
  { key: 'newsletter_opt_in', type: 'boolean' },
  { key: 'visits_per_month', type: 'number' },
  { key: 'member_since', type: 'date' },
] as const;

type XpEntry = { type: 'xp_earn' | 'xp_bonus'; amount: string; notes: string };
type DemoCustomer = {
  external_id: string;
  email: string;
  username: string;
  country_code: string;
  xp: XpEntry[];
  redeem?: string;
  attributes: Record<string, unknown>;
};

const earn = (amount: number, notes: string): XpEntry => ({ type: 'xp_earn', amount: String(amount), notes });
const bonus = (amount: number, notes: string): XpEntry => ({ type: 'xp_bonus', amount: String(amount), notes });

/** Lifetime XP lands them in different tiers: Gold >= 2000, Silver >= 500, Bronze below. */
const CUSTOMERS: DemoCustomer[] = [
  { external_id: 'demo-1001', email: 'alice@example.com', username: 'alice', country_code: 'US', xp: [earn(1200, 'Orders in March'), bonus(500, 'Welcome bonus'), earn(600, 'Orders in April')], redeem: 'Canvas tote bag', attributes: { favorite_drink: 'flat white', newsletter_opt_in: true, visits_per_month: 12, member_since: '2023-02-14' } },
  { external_id: 'demo-1002', email: 'marcus@example.com', username: 'marcus', country_code: 'US', xp: [earn(320, 'Orders in March')], attributes: { favorite_drink: 'cold brew', newsletter_opt_in: false, visits_per_month: 3, member_since: '2025-09-01' } },
  { external_id: 'demo-1003', email: 'dieter@example.de', username: 'dieter', country_code: 'DE', xp: [earn(1500, 'Office catering'), bonus(800, 'Referral bonus'), earn(700, 'Orders in April')], redeem: 'VIP tasting evening', attributes: { favorite_drink: 'espresso', newsletter_opt_in: true, visits_per_month: 20, member_since: '2022-11-30' } },
  { external_id: 'demo-1004', email: 'lena@example.de', username: 'lena', country_code: 'DE', xp: [earn(450, 'Orders in March'), bonus(100, 'App review')], redeem: 'Free coffee', attributes: { favorite_drink: 'chai latte', newsletter_opt_in: true, visits_per_month: 6, member_since: '2024-05-20' } },
  { external_id: 'demo-1005', email: 'claire@example.fr', username: 'claire', country_code: 'FR', xp: [earn(200, 'Orders in April')], attributes: { favorite_drink: 'cappuccino', visits_per_month: 2, member_since: '2026-01-10' } },
  { external_id: 'demo-1006', email: 'emma@example.co.uk', username: 'emma', country_code: 'GB', xp: [earn(650, 'Orders in March'), bonus(150, 'Birthday bonus')], redeem: '10% off your next order', attributes: { favorite_drink: 'earl grey', newsletter_opt_in: true, visits_per_month: 8, member_since: '2024-08-03' } },
  { external_id: 'demo-1007', email: 'haruto@example.jp', username: 'haruto', country_code: 'JP', xp: [earn(900, 'Orders in March'), bonus(300, 'Campaign bonus'), earn(1000, 'Orders in April')], attributes: { favorite_drink: 'matcha latte', newsletter_opt_in: false, visits_per_month: 15, member_since: '2023-06-18' } },
  { external_id: 'demo-1008', email: 'beatriz@example.com.br', username: 'beatriz', country_code: 'BR', xp: [earn(120, 'First order')], attributes: { favorite_drink: 'cafezinho', newsletter_opt_in: true, visits_per_month: 1, member_since: '2026-03-02' } },
];

const COHORTS = [
  {
    name: 'European newsletter readers',
    description: 'Opted in to the newsletter, in Germany, France or the UK',
    rules: {
      operator: 'and',
      version: 1,
      predicates: [
        { type: 'attribute', key: 'newsletter_opt_in', op: 'eq', value: 'true' },
        { type: 'country', op: 'in', value: '["DE","FR","GB"]' },
      ],
    },
  },
  {
    name: 'Regulars',
    description: 'At least 10 visits a month, or 1,500 XP to spend',
    rules: {
      operator: 'or',
      version: 1,
      predicates: [
        { type: 'attribute', key: 'visits_per_month', op: 'gte', value: '10' },
        { type: 'xp_balance', op: 'gte', value: '1500' },
      ],
    },
  },
  {
    name: 'Members since 2025',
    description: 'Joined the program on or after 1 January 2025',
    rules: {
      operator: 'and',
      version: 1,
      predicates: [{ type: 'attribute', key: 'member_since', op: 'gte', value: '2025-01-01' }],
    },
  },
];

type Tier = { id: string; tier_name: string };
type Reward = { id: string; title: string };
type Customer = { id: string; external_id: string; xp_balance: string; lifetime_xp: string; tier?: { tier_name: string } | null };
type Page<T> = { items: T[] };

/** Prints each step's outcome; failures show the request, status and body, and are counted. */
class Report {
  failures = 0;
  /** Routes that answered "No route" (not built yet): tried once, then skipped. */
  private readonly missingRoutes = new Set<string>();

  /** True when `route` already answered "No route"; the step is then skipped quietly. */
  routeMissing(route: string): boolean {
    return this.missingRoutes.has(route);
  }

  ok(label: string, detail = ''): void {
    console.log(`  ✓ ${label}${detail ? ` (${detail})` : ''}`);
  }

  skip(label: string, why: string): void {
    console.log(`  - ${label}: ${why}`);
  }

  fail(label: string, res: ApiResponse, route?: string): void {
    this.failures += 1;
    const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    const noRoute = res.status === 404 && errorCodeOf(res) === 'NOT_FOUND' && body.includes('No route');
    if (noRoute && route) this.missingRoutes.add(route);
    const hint = noRoute ? ' (route not built yet; skipping its other steps)' : '';
    console.log(`  ✗ ${label}: ${res.method} ${res.path} -> ${res.status}${hint} ${body.length > 600 ? `${body.slice(0, 600)}…` : body}`);
  }
}

/** A deterministic idempotency key for a write that must not happen twice (XP, redemptions). */
function onceKey(kind: string, payload: unknown): string {
  return `seed:${kind}:${createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 16)}`;
}

async function listAll<T>(path: string, token: string): Promise<{ res: ApiResponse; items?: T[] }> {
  const res = await apiCall('GET', `${path}?limit=100`, { token });
  return { res, items: dataOf<Page<T>>(res)?.items };
}

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

  if (!apiKey) report.skip('customers, XP and redemptions', 'no API key');
  else {
    for (const demo of CUSTOMERS) {
      const customer = await seedCustomer(apiKey, demo, rewardIds, report);
      if (customer) {
        console.log(`      ${customer.id}: balance ${customer.xp_balance}, lifetime ${customer.lifetime_xp}, tier ${customer.tier?.tier_name ?? 'none'}`);
      }
    }
  }

  await ensureCohorts(token, tenant.id, report);
  console.log(report.failures === 0 ? 'Seed complete.' : `Seed finished with ${report.failures} failed step(s) (see ✗ above).`);
  return { state, failures: report.failures };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
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
