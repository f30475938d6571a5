import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECOMPUTE_CHUNK, REQUEST_RECOMPUTE_CHUNKS } from '../../src/domain/cohort-recompute';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { cohortSchema, RECOMPUTING_HEADER } from '../../src/schemas/cohort';
import { customerSchema } from '../../src/schemas/customer';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { createCustomerViaApi, createTierViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { gatewayRequest, portalRequest } from '../support/race';
import { createCohort, defineAttribute, tenantPath } from '../support/segments';
import { createTenant, createTestApiKey, shardD1, type TestApiKey, type TestTenant } from '../support/world';
import { measured, measuredCron } from './counting-d1';
import { matches, type MemoryCustomer, type MemoryRules, type MemoryWorld } from './evaluate';
import { finishRecomputes, heaviestTrip, MINUTE_CRON, pendingRecomputes } from './recompute-driver';
import { containsRules, seedCustomers, seeded } from './seed';

/**
 * Defect 3, its last bound: a tier ladder change re-evaluated every cohort reading `tier` for every
 * customer in the band in one transaction (at 2,000 customers and 100 such cohorts, 3.7 million
 * rows read while every other tenant waited). It now runs in chunks, each its own transaction of
 * bounded size (src/db/sql/cohort-recomputes.sql): the request applies a budget of them, the minute cron the rest.
 * Measured in D1 rows read per round trip (instrumentation of the real binding), never in time.
 */

const CUSTOMERS = 2000;
const COHORTS = 100;
/** A chunk's evaluations read a few rows each (a value, a tier seek, a membership); its positions one row each. */
const ROWS_PER_TRIP = 4 * RECOMPUTE_CHUNK.evaluations + RECOMPUTE_CHUNK.positions;

type Tiers = { silver: string; gold: string; platinum: string };
type Built = { tenant: TestTenant; key: TestApiKey; customers: MemoryCustomer[]; cohorts: { id: string; rules: MemoryRules }[]; tiers: Tiers; world: MemoryWorld };

/** 2,000 customers with lifetime XP 0-999, three tiers, 100 cohorts: a tier predicate and 19 `contains`, `and` and `or` in turn. */
async function build(seed: number): Promise<Built> {
  const random = seeded(seed);
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const bio = await defineAttribute(tenant.owner, tenant.id, 'bio', 'string');
  const customers = await seedCustomers(tenant.id, bio, CUSTOMERS, random, (next) => Math.floor(next() * 1000));
  const tiers: Tiers = {
    silver: (await createTierViaApi(tenant.owner, tenant.id, 'Silver', 300)).id,
    gold: (await createTierViaApi(tenant.owner, tenant.id, 'Gold', 600)).id,
    platinum: (await createTierViaApi(tenant.owner, tenant.id, 'Platinum', 900)).id,
  };
  const world: MemoryWorld = {
    definitions: { bio: 'string' },
    tiers: [
      { id: tiers.silver, threshold: 300 },
      { id: tiers.gold, threshold: 600 },
      { id: tiers.platinum, threshold: 900 },
    ],
  };
  const ladder = [tiers.silver, tiers.gold, tiers.platinum];
  const cohorts: Built['cohorts'] = [];
  for (let index = 0; index < COHORTS; index += 1) {
    const { operator, predicates } = containsRules(random, index % 2 === 0 ? 'and' : 'or', 19);
    const rules: MemoryRules = { operator, predicates: [{ type: 'tier', op: 'eq', value: ladder[index % 3] }, ...predicates] };
    cohorts.push({ id: (await createCohort(tenant.owner, tenant.id, { ...rules, version: 1 }, `Cohort ${index}`)).id, rules });
  }
  await finishRecomputes();
  return { tenant, key, customers, cohorts, tiers, world };
}

const listRequest = ({ tenant }: Built) => portalRequest(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts?limit=${COHORTS}`));

async function listCohorts(built: Built) {
  const { response } = await measured(listRequest(built));
  return { page: expectOk(response, 200, pageSchema(cohortSchema)), recomputing: response.headers.get(RECOMPUTING_HEADER) };
}

/** Every listed member_count equals the reference evaluation of the cohort's rules, and nothing is left pending. */
async function expectExactCounts(built: Built) {
  const { page, recomputing } = await listCohorts(built);
  expect(recomputing).toBeNull();
  const counts = new Map(page.items.map((cohort) => [cohort.id, cohort.member_count]));
  const expected = built.cohorts.map(({ id, rules }) => [id, built.customers.filter((customer) => matches(rules, customer, built.world)).length]);
  expect(built.cohorts.map(({ id }) => [id, counts.get(id)])).toEqual(expected);
}

const moveTier = ({ tenant }: Built, id: string, name: string, threshold: number) =>
  portalRequest(tenant.owner, 'PUT', tenantPath(tenant.id, `/tiers/${id}`), { tier_name: name, min_xp_threshold: threshold, benefits_description: '', color: '', icon: '' });

function setThreshold(built: Built, id: string, threshold: number) {
  const tier = built.world.tiers.find((candidate) => candidate.id === id);
  if (!tier) throw new Error(`no tier ${id}`);
  tier.threshold = threshold;
}

let ladder: Built;
let busy: Built;

beforeAll(async () => {
  ladder = await build(11);
  busy = await build(12);
}, 600_000);

describe('a tier ladder change at attack size (100 tier cohorts x 20 predicates, 2,000 customers)', () => {
  it('holds the database one bounded chunk at a time, in the request and then in the minute cron, and ends exact', async () => {
    await expectExactCounts(ladder);
    // Silver down to 0: every customer below 600 is in the band, for every cohort.
    const { response, cost } = await measured(moveTier(ladder, ladder.tiers.silver, 'Silver', 0));
    expectOk(response, 200, successFlagSchema);
    setThreshold(ladder, ladder.tiers.silver, 0);
    console.info('PUT /tiers/{id} (every customer below Gold in the band, 100 tier cohorts)', {
      roundTrips: cost.roundTrips,
      rowsRead: cost.rowsRead,
      heaviestTrip: heaviestTrip(cost.trips),
    });
    expect(heaviestTrip(cost.trips)).toBeLessThanOrEqual(ROWS_PER_TRIP);
    // The request's budget of chunks, and a few round trips of its own.
    expect(cost.roundTrips).toBeLessThanOrEqual(REQUEST_RECOMPUTE_CHUNKS + 5);

    // More work than one request's budget: the cohorts not yet done say so.
    expect(await pendingRecomputes(ladder.tenant.id)).toBeGreaterThan(0);
    const { recomputing } = await listCohorts(ladder);
    const named = (recomputing ?? '').split(',');
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((id) => ladder.cohorts.some((cohort) => cohort.id === id))).toBe(true);
    const members = await measured(portalRequest(ladder.tenant.owner, 'GET', tenantPath(ladder.tenant.id, `/cohorts/${named[0]}/members`)));
    expectOk(members.response, 200, pageSchema(customerSchema));
    expect(members.response.headers.get(RECOMPUTING_HEADER)).toBe(named[0]);

    const { runs, trips } = await finishRecomputes();
    console.info('minute cron until done', { runs, roundTrips: trips.length, rowsRead: trips.reduce((sum, trip) => sum + trip.rowsRead, 0), heaviestTrip: heaviestTrip(trips) });
    expect(heaviestTrip(trips)).toBeLessThanOrEqual(ROWS_PER_TRIP);
    await expectExactCounts(ladder);
    const done = await measured(portalRequest(ladder.tenant.owner, 'GET', tenantPath(ladder.tenant.id, `/cohorts/${named[0]}`)));
    expectOk(done.response, 200, cohortSchema);
    expect(done.response.headers.get(RECOMPUTING_HEADER)).toBeNull();
  });
});

describe('writes while a re-evaluation is pending', () => {
  it('earns, a new customer, a rule save, a second ladder change and a deleted cohort, some fired at once with two cron runs, end exact', async () => {
    const [saved, removed] = busy.cohorts;
    const [first] = busy.customers;
    const last = busy.customers.at(-1);
    if (!saved || !removed || !first || !last) throw new Error('nothing built');

    // Gold down to 500: customers from 500 to 899 are in the band, for every cohort.
    expectOk((await measured(moveTier(busy, busy.tiers.gold, 'Gold', 500))).response, 200, successFlagSchema);
    setThreshold(busy, busy.tiers.gold, 500);
    expect(await pendingRecomputes(busy.tenant.id)).toBeGreaterThan(0);

    // Customers at both ends of the positions (one maybe re-evaluated already, one not yet) earn, with two cron runs at once.
    const earn = (customer: MemoryCustomer) =>
      gatewayRequest(busy.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: '350' } });
    const [firstEarn, lastEarn] = await Promise.all([
      measured(await earn(first)),
      measured(await earn(last)),
      measuredCron(MINUTE_CRON),
      measuredCron(MINUTE_CRON),
    ]);
    for (const { response } of [firstEarn, lastEarn]) expectOk(response, 201, internalTransactionSchema);
    for (const customer of [first, last]) Object.assign(customer, { xpBalance: customer.xpBalance + 350, lifetimeXp: customer.lifetimeXp + 350 });

    // A customer created meanwhile is evaluated when inserted.
    const created = await createCustomerViaApi(busy.key);
    busy.customers.push({ id: created.id, status: created.status, country: created.country_code ?? null, xpBalance: 0, lifetimeXp: 0, attributes: {} });

    // New rules for a pending cohort merge into its job, which starts over.
    const rules: MemoryRules = { operator: 'or', predicates: [{ type: 'tier', op: 'eq', value: busy.tiers.platinum }, ...containsRules(seeded(5), 'or', 3).predicates] };
    const patched = await measured(portalRequest(busy.tenant.owner, 'PATCH', tenantPath(busy.tenant.id, `/cohorts/${saved.id}`), { rules: { ...rules, version: 1 } }));
    expectOk(patched.response, 200, cohortSchema);
    saved.rules = rules;

    // A second ladder change while the first is still being applied.
    expectOk((await measured(moveTier(busy, busy.tiers.platinum, 'Platinum', 800))).response, 200, successFlagSchema);
    setThreshold(busy, busy.tiers.platinum, 800);

    // A deleted cohort's memberships go in chunks too.
    const deleted = await measured(portalRequest(busy.tenant.owner, 'DELETE', tenantPath(busy.tenant.id, `/cohorts/${removed.id}`)));
    expectOk(deleted.response, 200, successFlagSchema);
    busy.cohorts = busy.cohorts.filter((cohort) => cohort.id !== removed.id);

    const { trips } = await finishRecomputes();
    expect(heaviestTrip(trips)).toBeLessThanOrEqual(ROWS_PER_TRIP);
    await expectExactCounts(busy);
    const orphans = await shardD1(busy.tenant.id).prepare('select count(*) as n from cohort_memberships where tenant_id = ? and cohort_id = ?').bind(busy.tenant.id, removed.id).first<{ n: number }>();
    expect(orphans?.n).toBe(0);
  });
});
