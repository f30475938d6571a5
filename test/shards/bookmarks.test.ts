import { describe, expect, it } from 'vitest';
import { BOOKMARK_FORMAT } from '../../src/domain/shards';
import { customerSchema } from '../../src/schemas/customer';
import { pageSchema } from '../../src/lib/paging';
import { tierRuleSchema } from '../../src/schemas/tier';
import { call, callWorker, expectError, expectOk } from '../support/http';
import { envWithShard, gatewayRequest, portalRequest } from '../support/race';
import { createTenant, createTestApiKey, gatewayCall, portalCall, shardD1 } from '../support/world';
import { gatewaySdk, portalSdk } from '../sdk/harness';

/**
 * Reading your own writes across D1's read replicas (docs/SCALING.md, "Reads from replicas"): every
 * answer of a tenant's request carries the session's bookmark (`X-D1-Bookmark`), a client sends the
 * last one back, and the SDK (so the CMS) does it by itself. Locally every session is served by the
 * primary; what is tested is the exchange and its refusals.
 */
const BOOKMARK = 'x-d1-bookmark';

describe('X-D1-Bookmark', () => {
  it('comes with every gateway answer; sent back, the next read sees the write and answers a bookmark again', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const written = await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'bookmarked' } });
    const customer = expectOk(written, 201, customerSchema);
    const bookmark = written.headers.get(BOOKMARK);
    expect(bookmark).toMatch(BOOKMARK_FORMAT);
    const read = await gatewayCall(key, 'GET', `/api/v1/gateway/customers/${customer.id}`, { headers: { 'X-D1-Bookmark': bookmark! } });
    expect(expectOk(read, 200, customerSchema).id).toBe(customer.id);
    expect(read.headers.get(BOOKMARK)).toMatch(BOOKMARK_FORMAT);
    // An error's answer carries one too: the request may have written before it failed.
    const missing = await gatewayCall(key, 'GET', '/api/v1/gateway/customers/cus_missing');
    expectError(missing, 404, 'NOT_FOUND');
    expect(missing.headers.get(BOOKMARK)).toMatch(BOOKMARK_FORMAT);
  });

  it('comes with every portal answer of a tenant, not with the platform\'s (/user/me reads the directory)', async () => {
    const tenant = await createTenant();
    const tiers = await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/tiers`);
    expectOk(tiers, 200, pageSchema(tierRuleSchema));
    expect(tiers.headers.get(BOOKMARK)).toMatch(BOOKMARK_FORMAT);
    expect((await portalCall(tenant.owner, 'GET', '/api/v1/user/me')).headers.get(BOOKMARK)).toBeNull();
  });

  it('refuses a bookmark it did not send: 400 BAD_REQUEST naming the header, on both surfaces, after authentication', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const garbage = { 'X-D1-Bookmark': 'not-a-bookmark' };
    for (const res of [
      await gatewayCall(key, 'GET', '/api/v1/gateway/tiers', { headers: garbage }),
      await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'refused' }, headers: garbage }),
    ]) {
      const body = expectError(res, 400, 'BAD_REQUEST', /^The X-D1-Bookmark header is not a bookmark this API sent/);
      expect(body.errors[0]?.path).toBe('X-D1-Bookmark');
    }
    expectError(await gatewayCall({ ...key, secret: 'sk_wrong' }, 'GET', '/api/v1/gateway/tiers', { headers: garbage }), 401, 'AUTH_INVALID_CREDENTIALS');
    const portal = await call('GET', `/api/v1/tenant/${tenant.id}/tiers`, { headers: { authorization: `Bearer ${tenant.owner.token}`, ...garbage } });
    expect(expectError(portal, 400, 'BAD_REQUEST', /^The X-D1-Bookmark header/).errors[0]?.path).toBe('X-D1-Bookmark');
    expectError(await call('GET', `/api/v1/tenant/${tenant.id}/tiers`, { headers: garbage }), 401, 'UNAUTHENTICATED');
  });
});

/** The Worker's bindings with the tenant's shard noting where each session starts (the real binding underneath, nothing mocked). */
function sessionStarts(tenantId: string) {
  const real = shardD1(tenantId);
  const starts: string[] = [];
  const noting = new Proxy(real, {
    get(target, property) {
      if (property === 'withSession') {
        return (start: string) => {
          starts.push(start);
          return target.withSession(start);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { starts, env: envWithShard(tenantId, noting) };
}

describe('where a request\'s session starts', () => {
  it('gateway: always on the primary, a read with a bookmark or none too, so a key revoked a moment ago is refused at every location', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const { starts, env } = sessionStarts(tenant.id);
    const written = await callWorker(await gatewayRequest(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'primary' } }), env);
    const customer = expectOk(written, 201, customerSchema);
    const path = `/api/v1/gateway/customers/${customer.id}`;
    expectOk(await callWorker(await gatewayRequest(key, 'GET', path), env), 200, customerSchema);
    const bookmarked = await gatewayRequest(key, 'GET', path);
    bookmarked.headers.set('X-D1-Bookmark', written.headers.get(BOOKMARK)!);
    expectOk(await callWorker(bookmarked, env), 200, customerSchema);
    expect(starts).toEqual(['first-primary', 'first-primary', 'first-primary']);
  });

  it('portal: a read on the nearest copy (a replica), a write on the primary, a sent bookmark where it says', async () => {
    const tenant = await createTenant();
    const { starts, env } = sessionStarts(tenant.id);
    const written = await callWorker(portalRequest(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/tiers`, { tier_name: 'Gold', min_xp_threshold: 100 }), env);
    expectOk(written, 201, tierRuleSchema);
    expectOk(await callWorker(portalRequest(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/tiers`), env), 200, pageSchema(tierRuleSchema));
    const bookmark = written.headers.get(BOOKMARK)!;
    const bookmarked = portalRequest(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/tiers`);
    bookmarked.headers.set('X-D1-Bookmark', bookmark);
    expectOk(await callWorker(bookmarked, env), 200, pageSchema(tierRuleSchema));
    expect(starts).toEqual(['first-primary', 'first-unconstrained', bookmark]);
  });
});

describe('the SDK sends back the last bookmark', () => {
  it('gateway: none on the first request, then the last answer\'s', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const { gateway, sent } = gatewaySdk(key);
    await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-bookmark' } });
    const { response } = await gateway.gatewayListTiers();
    expect(sent.map((request) => request.headers.get(BOOKMARK) === null)).toEqual([true, false]);
    expect(sent[1]?.headers.get(BOOKMARK)).toMatch(BOOKMARK_FORMAT);
    await gateway.gatewayListTiers();
    expect(sent[2]?.headers.get(BOOKMARK)).toBe(response.headers.get(BOOKMARK));
  });

  it('portal: per tenant, never one tenant\'s bookmark to another tenant', async () => {
    const [first, second] = [await createTenant(), await createTenant()];
    const { portal, sent } = portalSdk(first.owner.token);
    await portal.listTiers({ params: { path: { tenantId: first.id } } });
    await portal.listTiers({ params: { path: { tenantId: first.id } } });
    expect(sent[1]?.headers.get(BOOKMARK)).toMatch(BOOKMARK_FORMAT);
    const other = portalSdk(second.owner.token);
    await other.portal.listTiers({ params: { path: { tenantId: first.id } } });
    expect(other.sent[0]?.headers.get(BOOKMARK)).toBeNull();
    await portal.getCurrentUser();
    expect(sent[2]?.headers.get(BOOKMARK)).toBeNull();
  });
});
