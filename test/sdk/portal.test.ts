import { describe, expect, it } from 'vitest';
import { createPortalClient } from '../../sdk/src';
import { createTenant } from '../support/world';
import { BASE_URL, gatewaySdk, portalSdk, workerFetch } from './harness';

describe('SDK portal client (bearer token)', () => {
  it('calls the portal with the bearer token: a named method per operationId', async () => {
    const tenant = await createTenant('sdk-portal');
    const { portal, sent } = portalSdk(tenant.owner.token);
    const { data, error, response } = await portal.listRewards({ params: { path: { tenantId: tenant.id }, query: { limit: 5 } } });
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data?.data.items).toEqual([]);
    expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${tenant.owner.token}`);
  });

  it('takes the API key from the portal to the first signed gateway call (docs/INTEGRATION.md)', async () => {
    const tenant = await createTenant('sdk-integration');
    const { portal } = portalSdk(tenant.owner.token);
    const created = await portal.createApiKey({ params: { path: { tenantId: tenant.id } }, body: { name: 'Production backend' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const apiKey = created.data!.data;
    expect(apiKey.secret).toBeTruthy();
    const { gateway } = gatewaySdk({ id: apiKey.id, keyId: apiKey.key_id, secret: apiKey.secret, tenantId: tenant.id });
    const customers = await gateway.gatewayListCustomers({ params: { query: { limit: 10 } } });
    expect(customers.response.status, JSON.stringify(customers.error)).toBe(200);
    expect(customers.data?.data).toMatchObject({ items: [], total_count: 0 });
  });

  it('asks a token function again for every request (a refreshed token is used at once)', async () => {
    const tenant = await createTenant('sdk-token-fn');
    const tokens = [tenant.owner.token, 'not-a-jwt'];
    const { fetch, sent } = workerFetch();
    const portal = createPortalClient({ baseUrl: BASE_URL, token: async () => tokens.shift() ?? '', fetch });
    expect((await portal.getCurrentUser()).response.status).toBe(200);
    const refused = await portal.getCurrentUser();
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error.code).toBe('UNAUTHENTICATED');
    expect(sent.map((request) => request.headers.get('authorization'))).toEqual([`Bearer ${tenant.owner.token}`, 'Bearer not-a-jwt']);
  });
});
