import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE } from '../../src/lib/paging';
import { call, expectError, type JsonResponse } from '../support/http';
import { createTenant, createTestApiKey, gatewayCall, portalCall, type TestApiKey, type TestTenant } from '../support/world';

/**
 * Issue 9, defect 4 (parameter part): every path and query parameter is bounded and validated before
 * it reaches storage: 422 VALIDATION_FAILED at the parameter's name, never a 500. Values as sent in
 * the URL (percent-encoded where needed).
 */
const hostile = {
  'over-long (10,000 characters)': 'a'.repeat(10_000),
  NUL: '%00',
  'a control character': '%01',
  DEL: '%7F',
  'a C1 control character': '%C2%85',
} as const;
/** Fine in free text (a name, an external id), never in an id. */
const notAnId = {
  ...hostile,
  'non-ASCII': '%C3%A9t%C3%A9',
  'an emoji': '%F0%9F%98%80',
  'a broken escape': '%E0%A4%A',
  'a space': 'a%20b',
  'a quote': "a'b",
} as const;

let tenant: TestTenant;
let key: TestApiKey;
beforeAll(async () => {
  tenant = await createTenant();
  key = await createTestApiKey(tenant.id);
});

const portal = (method: string, path: string, body?: unknown) => portalCall(tenant.owner, method, `/api/v1/tenant/${tenant.id}${path}`, body);
const gateway = (method: string, path: string, body?: unknown) => gatewayCall(key, method, `/api/v1/gateway${path}`, { body });

function expectInvalidParameter(res: JsonResponse, name: string) {
  const body = expectError(res, 422, 'VALIDATION_FAILED');
  expect(body.errors.map((entry) => entry.path), res.text.slice(0, 300)).toContain(name);
}

type Probe = [label: string, send: (value: string) => Promise<JsonResponse>, parameter: string];

const idProbes: Probe[] = [
  ['portal path tenantId', (v) => portalCall(tenant.owner, 'GET', `/api/v1/tenant/${v}/rewards`), 'tenantId'],
  ['portal path rewardId', (v) => portal('GET', `/rewards/${v}`), 'rewardId'],
  ['portal path cohortId (DELETE)', (v) => portal('DELETE', `/cohorts/${v}`), 'cohortId'],
  ['portal path tierId (eligibility)', (v) => portal('GET', `/customers/cus_x/tier/${v}/eligibility`), 'tierId'],
  ['portal path id (PATCH with a body)', (v) => portal('PATCH', `/onchain-assets/${v}`, { name: 'n' }), 'id'],
  ['portal query user_id', (v) => portal('GET', `/internal-transactions?user_id=${v}`), 'user_id'],
  ['portal query reward_id', (v) => portal('GET', `/redemptions?reward_id=${v}`), 'reward_id'],
  ['gateway path userId', (v) => gateway('GET', `/customers/${v}`), 'userId'],
  ['gateway path internal_transaction_id', (v) => gateway('GET', `/internal-transactions/${v}`), 'internal_transaction_id'],
  ['gateway path redemption_id', (v) => gateway('GET', `/redemptions/${v}`), 'redemption_id'],
  ['gateway path userId (PUT with a body)', (v) => gateway('PUT', `/customers/${v}/attributes`, { values: { a: 1 } }), 'userId'],
  ['gateway query user_id', (v) => gateway('GET', `/internal-transactions?user_id=${v}`), 'user_id'],
];

const textProbes: Probe[] = [
  ['portal query external_id', (v) => portal('GET', `/customers?external_id=${v}`), 'external_id'],
  ['portal query tier_name', (v) => portal('GET', `/tiers?tier_name=${v}`), 'tier_name'],
  ['gateway query external_id', (v) => gateway('GET', `/customers?external_id=${v}`), 'external_id'],
  ['gateway query tier_name', (v) => gateway('GET', `/tiers?tier_name=${v}`), 'tier_name'],
];

const patternProbes: Probe[] = [
  ['portal query email', (v) => portal('GET', `/customers?email=${v}`), 'email'],
  ['gateway query email', (v) => gateway('GET', `/customers?email=${v}`), 'email'],
  ['portal query key (onchain assets)', (v) => portal('GET', `/onchain-assets?key=${v}`), 'key'],
];

describe('path and query ids', () => {
  for (const [label, send, parameter] of idProbes) {
    it.each(Object.entries(notAnId))(`${label}: %s is a 422 at ${parameter}`, async (_, value) => {
      expectInvalidParameter(await send(value), parameter);
    });
  }

  it('checks {tenantId} before authentication looks it up: 422 even without a token', async () => {
    expectInvalidParameter(await call('GET', `/api/v1/tenant/${'t'.repeat(10_000)}/rewards`), 'tenantId');
    expectInvalidParameter(await call('GET', '/api/v1/tenant/%00/rewards'), 'tenantId');
  });

  it('a well-formed id that does not exist is still a 404', async () => {
    expectError(await portal('GET', '/rewards/rwd_missing'), 404, 'NOT_FOUND');
    expectError(await gateway('GET', '/customers/cus_missing'), 404, 'NOT_FOUND');
    expectError(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/ten_${'x'.repeat(60)}/rewards`), 404, 'NOT_FOUND');
  });
});

describe('free-text filters', () => {
  for (const [label, send, parameter] of textProbes) {
    it.each(Object.entries(hostile))(`${label}: %s is a 422 at ${parameter}`, async (_, value) => {
      expectInvalidParameter(await send(value), parameter);
    });
    it(`${label}: non-ASCII text is a valid filter (200)`, async () => {
      expect((await send('%C3%A9t%C3%A9%20%F0%9F%98%80')).status).toBe(200);
    });
  }

  for (const [label, send, parameter] of patternProbes) {
    it.each(Object.entries(notAnId))(`${label}: %s is a 422 at ${parameter}`, async (_, value) => {
      expectInvalidParameter(await send(value), parameter);
    });
  }
});

describe('paging', () => {
  const lists: Array<[string, (query: string) => Promise<JsonResponse>]> = [
    ['portal members', (query) => portal('GET', `/members?${query}`)],
    ['gateway rewards', (query) => gateway('GET', `/rewards?${query}`)],
  ];
  for (const [label, list] of lists) {
    it.each([
      ['page', `page=9007199254740992`],
      ['page', `page=${MAX_PAGE + 1}`],
      ['page', 'page=0'],
      ['page', 'page=-1'],
      ['page', 'page=1e3'],
      ['page', 'page=1.0'],
      ['page', 'page=0x10'],
      ['page', 'page=%201'],
      ['page', 'page='],
      ['page', 'page=1&page=2'],
      ['page', `page=${'9'.repeat(10_000)}`],
      ['limit', 'limit=0'],
      ['limit', 'limit=101'],
      ['limit', 'limit=abc'],
    ])(`${label}: %s out of bounds (%s) is a 422`, async (parameter, query) => {
      expectInvalidParameter(await list(query), parameter);
    });

    it(`${label}: the last allowed page answers an empty page`, async () => {
      const res = await list(`page=${MAX_PAGE}&limit=100`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ data: { items: [], page: MAX_PAGE, limit: 100, has_next_page: false } });
    });
  }

  it('analytics: limit and the period bounds are validated', async () => {
    expectInvalidParameter(await portal('GET', '/analytics/top-rewards?limit=101'), 'limit');
    expectInvalidParameter(await portal('GET', `/analytics/top-countries?from=${'2'.repeat(10_000)}`), 'from');
    expectInvalidParameter(await portal('GET', '/analytics/top-countries?to=2026-02-30%00'), 'to');
  });
});
