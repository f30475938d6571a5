/**
 * What the bench measures: the Worker's routes with their target ratio to the bare baseline
 * Worker (issue 10), and the baseline's own requests. Every request is built fresh: random ids
 * from the loaded data, a fresh signature, a unique body and idempotency key for writes.
 */
import { BENCH_EVENT_TYPE } from './earning-rules';
import type { Manifest, BenchTenant } from './state';
import { randomInt } from './sql';
import { pick, plainGet, portalGet, roundRobin, signedGet, signedPost, type BenchRequest } from './requests';

export type BaselineKind = 'read' | 'insert';
/** `load`: the request under autocannon on tenant "large"; `scale`: the same request shape on either tenant. */
export type Purpose = 'load' | 'scale';

export type Route = {
  name: string;
  label: string;
  group: 'gateway reads' | 'lists' | 'writes';
  /** Least acceptable req/s ratio to the baseline counterpart. */
  target: number;
  counterpart: BaselineKind;
  request(tenant: BenchTenant, purpose: Purpose): BenchRequest;
};

const PAGE_SIZE = 20;
/** The deep page: page 4000 of 20 (customers 79,981-80,000), or the last page of a smaller tenant. */
const DEEP_PAGE = 4000;
/** Gateway list pages are spread over the first ones, where integrations that sync customers read. */
const GATEWAY_LIST_PAGES = 50;

const lastPage = (rows: number) => Math.max(1, Math.ceil(rows / PAGE_SIZE));
const GATEWAY = '/api/v1/gateway';
const portal = (tenant: BenchTenant) => `/api/v1/tenant/${tenant.id}`;

/** The Worker's measured routes; `only` keeps those named (all when empty). */
export function workerRoutes(manifest: Manifest, token: string, only: readonly string[] = []): Route[] {
  const earners = new Map<string, () => string>();
  const nextEarner = (tenant: BenchTenant) => {
    let next = earners.get(tenant.id);
    if (!next) earners.set(tenant.id, (next = roundRobin(tenant.sample.earnerIds)));
    return next();
  };
  const read = { group: 'gateway reads', target: 0.8, counterpart: 'read' } as const;
  const list = { group: 'lists', target: 0.5, counterpart: 'read' } as const;
  const write = { group: 'writes', target: 0.6, counterpart: 'insert' } as const;
  const routes: Route[] = [
    {
      ...read, name: 'gateway-transaction', label: 'gateway GET /internal-transactions/{id}',
      request: (t) => signedGet(t.apiKey, `${GATEWAY}/internal-transactions/${pick(t.sample.transactionIds)}`),
    },
    { ...read, name: 'gateway-customer', label: 'gateway GET /customers/{id}', request: (t) => signedGet(t.apiKey, `${GATEWAY}/customers/${pick(t.sample.customerIds)}`) },
    {
      ...read, name: 'gateway-redemption', label: 'gateway GET /redemptions/{id}',
      request: (t) => signedGet(t.apiKey, `${GATEWAY}/redemptions/${pick(t.sample.redemptionIds)}`),
    },
    {
      ...list, name: 'gateway-customers', label: `gateway GET /customers?page=1..${GATEWAY_LIST_PAGES}`,
      request: (t, purpose) => {
        const page = purpose === 'scale' ? 1 : 1 + Math.floor(Math.random() * Math.min(GATEWAY_LIST_PAGES, lastPage(t.customers)));
        return signedGet(t.apiKey, `${GATEWAY}/customers?page=${page}`);
      },
    },
    {
      ...list, name: 'gateway-customer-transactions', label: 'gateway GET /internal-transactions?user_id=',
      request: (t) => signedGet(t.apiKey, `${GATEWAY}/internal-transactions?user_id=${pick(t.sample.customerIds)}`),
    },
    {
      ...list, name: 'portal-transactions-filtered', label: 'portal internal-transactions?type=xp_earn&status=completed',
      request: (t) => portalGet(token, `${portal(t)}/internal-transactions?type=xp_earn&status=completed`),
    },
    {
      ...list, name: 'portal-customers-deep', label: `portal customers page ${DEEP_PAGE} (last page for scale)`,
      request: (t, purpose) => {
        const page = purpose === 'scale' ? lastPage(t.customers) : Math.min(DEEP_PAGE, lastPage(t.customers));
        return portalGet(token, `${portal(t)}/customers?page=${page}&limit=${PAGE_SIZE}`);
      },
    },
    {
      ...list, name: 'portal-cohort-last-page', label: 'portal cohort members, last page',
      request: (t) => portalGet(token, `${portal(t)}/cohorts/${t.cohort.id}/members?page=${lastPage(t.cohort.members)}&limit=${PAGE_SIZE}`),
    },
    { ...list, name: 'portal-top-countries', label: 'portal analytics top-countries', request: (t) => portalGet(token, `${portal(t)}/analytics/top-countries`) },
    {
      ...write, name: 'gateway-xp', label: 'gateway POST /xp (xp_earn 1)',
      // order_id makes every body, so every signature, unique even within one second.
      request: (t) => signedPost(t.apiKey, `${GATEWAY}/xp`, { user_id: nextEarner(t), type: 'xp_earn', amount: '1', metadata: { order_id: crypto.randomUUID() } }),
    },
    {
      ...write, name: 'gateway-redeem', label: 'gateway POST /redemptions (1 XP)',
      // The body cannot carry a nonce: customers go round-robin over thousands, so none repeats within a second.
      request: (t) => signedPost(t.apiKey, `${GATEWAY}/redemptions`, { user_id: nextEarner(t), reward_id: t.benchRewardId }),
    },
    {
      ...write, name: 'gateway-events', label: `gateway POST /events (${BENCH_EVENT_TYPE}, 20 rules)`,
      // A random customer who may earn, a total in dollars and cents; the reference makes every body unique.
      request: (t) =>
        signedPost(t.apiKey, `${GATEWAY}/events`, {
          user_id: pick(t.sample.earnerIds),
          type: BENCH_EVENT_TYPE,
          properties: { total: randomInt(Math.random, 500, 20_000) / 100, currency: 'USD' },
          reference: `order-${crypto.randomUUID()}`,
        }),
    },
  ];
  const unknown = only.filter((name) => !routes.some((route) => route.name === name));
  if (unknown.length > 0) throw new Error(`--only: no route named ${unknown.join(', ')} (routes: ${routes.map((r) => r.name).join(', ')})`);
  return only.length === 0 ? routes : routes.filter((route) => only.includes(route.name));
}

/** The bare Worker's requests (bench/baseline/worker.ts), on the same data as tenant "large". */
export function baselineRequests(manifest: Manifest): Record<BaselineKind | 'hello', () => BenchRequest> {
  const large = manifest.tenants.large;
  return {
    hello: () => plainGet('/hello'),
    read: () => signedGet(manifest.baselineKey, `/read/${pick(large.sample.transactionIds)}`),
    insert: () => signedPost(manifest.baselineKey, '/insert', { tenant_id: large.id, user_id: pick(large.sample.earnerIds), amount: '1', order_id: crypto.randomUUID() }),
  };
}
