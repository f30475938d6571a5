import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { webhookDeliverySchema, webhookEndpointSchema, webhookEndpointWithSecretSchema } from '../../src/schemas/webhook';
import { callWorker, expectError, expectOk, BASE } from '../support/http';
import { portalRequest, race } from '../support/race';
import { createEndpoint, newInbox } from '../support/webhooks';
import { addMember, createTenant, otherTenants, portalCall } from '../support/world';

const path = (tenantId: string, rest = '') => `/api/v1/tenant/${tenantId}/webhook-endpoints${rest}`;

/** A portal request to the Worker with webhooks to private targets refused, as in a deployed environment. */
function deployedCall(token: string, method: string, url: string, body: unknown) {
  const request = new Request(`${BASE}${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return callWorker(request, { ...env, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' });
}

/** Every route of one endpoint under the tenant's path, with a body a write accepts. */
const endpointRoutes = (tenantId: string, endpointId: string) =>
  [
    ['GET', path(tenantId, `/${endpointId}`)],
    ['PATCH', path(tenantId, `/${endpointId}`), { status: 'disabled' }],
    ['DELETE', path(tenantId, `/${endpointId}`)],
    ['POST', path(tenantId, `/${endpointId}/rotate-secret`)],
    ['GET', path(tenantId, `/${endpointId}/deliveries`)],
    ['POST', path(tenantId, `/${endpointId}/deliveries/whd_x/replay`)],
  ] as const;

describe('webhook endpoints (portal)', () => {
  it('create answers the secret once; get and list never show it; update and delete', async () => {
    const tenant = await createTenant();
    const created = await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    expect(created).toMatchObject({ status: 'enabled', description: 'test receiver', disabled_reason: null, failing_since: null, previous_secret_expires_at: null });

    const got = expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id, `/${created.id}`)), 200, webhookEndpointSchema);
    expect(got).not.toHaveProperty('secret');
    const list = expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id)), 200, pageSchema(webhookEndpointSchema));
    expect(list).toMatchObject({ total_count: 1, items: [{ id: created.id }] });

    const updated = expectOk(
      await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${created.id}`), { event_types: ['customer.created', 'redemption.failed'], status: 'disabled', description: 'paused' }),
      200,
      webhookEndpointSchema,
    );
    expect(updated).toMatchObject({ status: 'disabled', description: 'paused', event_types: ['customer.created', 'redemption.failed'] });

    expectOk(await portalCall(tenant.owner, 'DELETE', path(tenant.id, `/${created.id}`)), 200, successFlagSchema);
    expectError(await portalCall(tenant.owner, 'GET', path(tenant.id, `/${created.id}`)), 404, 'NOT_FOUND', 'Webhook endpoint not found');
  });

  it('rotating answers a new secret and keeps the previous one signing for 24 hours', async () => {
    const tenant = await createTenant();
    const created = await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    const rotated = expectOk(await portalCall(tenant.owner, 'POST', path(tenant.id, `/${created.id}/rotate-secret`)), 200, webhookEndpointWithSecretSchema);
    expect(rotated.secret).not.toBe(created.secret);
    const hours = (Date.parse(rotated.previous_secret_expires_at!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('two rotations at once: one wins, the other is a 409 that changed nothing (no secret handed out is lost)', async () => {
    const tenant = await createTenant();
    const created = await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    const rotate = () => portalRequest(tenant.owner, 'POST', path(tenant.id, `/${created.id}/rotate-secret`));
    // Both have read the endpoint before either writes.
    const { responses, held } = await race([rotate(), rotate()], /^update "webhook_endpoints"/);
    expect(held).toBe(2);
    const won = responses.filter((res) => res.status === 200);
    expect(won).toHaveLength(1);
    expectError(responses.find((res) => res.status !== 200)!, 409, 'CONFLICT', /rotated at the same time/);
    const winner = expectOk(won[0]!, 200, webhookEndpointWithSecretSchema);
    const got = expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id, `/${created.id}`)), 200, webhookEndpointSchema);
    expect(got.previous_secret_expires_at).toBe(winner.previous_secret_expires_at);
  });

  it.each([
    [{ url: 'http://hooks.example.com/x', event_types: ['customer.created'] }, 'url', /https/],
    [{ url: 'https://127.0.0.1/x', event_types: ['customer.created'] }, 'url', /loopback, private or link-local/],
    [{ url: 'https://10.1.2.3/x', event_types: ['customer.created'] }, 'url', /private/],
    [{ url: 'https://169.254.169.254/latest', event_types: ['customer.created'] }, 'url', /link-local/],
    [{ url: 'https://[::1]/x', event_types: ['customer.created'] }, 'url', /loopback/],
    [{ url: 'https://localhost/x', event_types: ['customer.created'] }, 'url', /loopback/],
    [{ url: 'https://hooks.internal/x', event_types: ['customer.created'] }, 'url', /private/],
  ])('refuses an unsafe target where private targets are not allowed: %j', async (body, field, message) => {
    const tenant = await createTenant();
    const res = await deployedCall(tenant.owner.token, 'POST', path(tenant.id), body);
    const error = expectError(res, 422, 'VALIDATION_FAILED', message);
    expect(error.errors[0]!.path).toBe(field);
  });

  it.each([
    'https://[::7f00:1]/x',
    'https://[::ffff:0:7f00:1]/x',
    'https://[64:ff9b::7f00:1]/x',
    'https://[2002:7f00:1::]/x',
    'https://[fec0::1]/x',
    'https://[100::1]/x',
    'https://localhost../x',
    'https://192.0.0.1/x',
    'https://192.0.2.1/x',
    'https://198.51.100.1/x',
    'https://203.0.113.1/x',
    'https://192.88.99.1/x',
    'https://2130706433/x',
    'https://0x7f.1/x',
    'https://hooks.corp/x',
    'https://hooks.lan/x',
    'https://wiki.intranet/x',
    'https://api.default.svc/x',
  ])('refuses the target %s (security review, issue 20) on create and on update: 422 at url', async (url) => {
    const tenant = await createTenant();
    const error = expectError(await deployedCall(tenant.owner.token, 'POST', path(tenant.id), { url, event_types: ['customer.created'] }), 422, 'VALIDATION_FAILED', /loopback, private or link-local/);
    expect(error.errors[0]!.path).toBe('url');
    const created = expectOk(await deployedCall(tenant.owner.token, 'POST', path(tenant.id), { url: 'https://hooks.partner.io/x', event_types: ['customer.created'] }), 201, webhookEndpointWithSecretSchema);
    const refused = expectError(await deployedCall(tenant.owner.token, 'PATCH', path(tenant.id, `/${created.id}`), { url }), 422, 'VALIDATION_FAILED', /loopback, private or link-local/);
    expect(refused.errors[0]!.path).toBe('url');
  });

  it('accepts a public https target where private targets are not allowed, and refuses changing it to a private one', async () => {
    const tenant = await createTenant();
    const created = expectOk(await deployedCall(tenant.owner.token, 'POST', path(tenant.id), { url: 'https://hooks.example.com/loyalty', event_types: ['customer.created'] }), 201, webhookEndpointWithSecretSchema);
    expectError(await deployedCall(tenant.owner.token, 'PATCH', path(tenant.id, `/${created.id}`), { url: 'https://192.168.1.5/x' }), 422, 'VALIDATION_FAILED', /private/);
  });

  it.each([
    [{ url: 'https://hooks.example.com', event_types: [] }, 'event_types'],
    [{ url: 'https://hooks.example.com', event_types: ['customer.deleted'] }, 'event_types.0'],
    [{ url: 'https://hooks.example.com', event_types: ['customer.created', 'customer.created'] }, 'event_types'],
    [{ url: 'not a url', event_types: ['customer.created'] }, 'url'],
    [{ url: 'https://hooks.example.com', event_types: ['customer.created'], secret: 'whsec_mine' }, 'secret'],
  ])('422 names the field at fault: %j', async (body, field) => {
    const tenant = await createTenant();
    const error = expectError(await portalCall(tenant.owner, 'POST', path(tenant.id), body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toContain(field);
  });

  it('an empty update is a 422', async () => {
    const tenant = await createTenant();
    const created = await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    expectError(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${created.id}`), {}), 422, 'VALIDATION_FAILED');
  });

  it('at most 20 endpoints per tenant, even when created at once (409 past it)', async () => {
    const tenant = await createTenant();
    const responses = await Promise.all(
      Array.from({ length: 24 }, () => portalCall(tenant.owner, 'POST', path(tenant.id), { url: newInbox().url, event_types: ['customer.created'] })),
    );
    expect(responses.filter((res) => res.status === 201)).toHaveLength(20);
    for (const res of responses.filter((res) => res.status !== 201)) expectError(res, 409, 'CONFLICT', /at most 20/);
  });

  it('one enabled endpoint per URL: a second is a 409 at url, compared as URL parsing serialises it', async () => {
    const tenant = await createTenant();
    const inbox = newInbox();
    const first = await createEndpoint(tenant.owner, tenant.id, `${inbox.url}#first`, ['customer.created']);
    expect(first.url).toBe(inbox.url); // stored without the fragment
    const upper = inbox.url.replace('http://', 'HTTP://');
    for (const url of [inbox.url, upper, `${inbox.url}#other`]) {
      const error = expectError(await portalCall(tenant.owner, 'POST', path(tenant.id), { url, event_types: ['redemption.failed'] }), 409, 'CONFLICT', /Another enabled webhook endpoint of this tenant has this URL/);
      expect(error.errors[0]!.path).toBe('url');
    }
    // Another path or query is another URL; another tenant (on another shard or the same one) may use the same one.
    await createEndpoint(tenant.owner, tenant.id, `${inbox.url}?copy=1`, ['customer.created']);
    for (const other of await otherTenants(tenant.id)) await createEndpoint(other.owner, other.id, inbox.url, ['customer.created']);
    // Disabled, the first one no longer holds the URL; enabled again while another has it, it is refused.
    expectOk(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${first.id}`), { status: 'disabled' }), 200, webhookEndpointSchema);
    const second = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['customer.created']);
    const reenable = expectError(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${first.id}`), { status: 'enabled' }), 409, 'CONFLICT', /has this URL/);
    expect(reenable.errors[0]!.path).toBe('url');
    // Changing another endpoint's url to the taken one is refused; editing the holder itself is not.
    const third = await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    expectError(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${third.id}`), { url: upper }), 409, 'CONFLICT', /has this URL/);
    expectOk(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${second.id}`), { url: inbox.url, description: 'same url', status: 'enabled' }), 200, webhookEndpointSchema);
    // A disabled endpoint may take the URL; nothing changed by the refusals.
    expectOk(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${first.id}`), { url: inbox.url, description: 'parked' }), 200, webhookEndpointSchema);
    const list = expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id)), 200, pageSchema(webhookEndpointSchema));
    expect(list.items.filter((endpoint) => endpoint.url === inbox.url && endpoint.status === 'enabled').map((endpoint) => endpoint.id)).toEqual([second.id]);
    expect(list.items.find((endpoint) => endpoint.id === third.id)!.url).not.toBe(inbox.url);
  });

  it('five creates with the same URL at once: exactly one 201, the others 409 at url', async () => {
    const tenant = await createTenant();
    const url = newInbox().url;
    const create = () => portalRequest(tenant.owner, 'POST', path(tenant.id), { url, event_types: ['customer.created'] });
    // Every request is at its INSERT before any of them runs.
    const { responses, held } = await race([create(), create(), create(), create(), create()], /^insert into "webhook_endpoints"/);
    expect(held).toBe(5);
    expect(responses.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of responses.filter((res) => res.status !== 201)) expect(expectError(res, 409, 'CONFLICT', /has this URL/).errors[0]!.path).toBe('url');
  });

  it('three disabled endpoints with one URL enabled at once: exactly one 200, the others 409', async () => {
    const tenant = await createTenant();
    const url = newInbox().url;
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const endpoint = await createEndpoint(tenant.owner, tenant.id, url, ['customer.created']);
      expectOk(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${endpoint.id}`), { status: 'disabled' }), 200, webhookEndpointSchema);
      ids.push(endpoint.id);
    }
    const enable = (id: string) => portalRequest(tenant.owner, 'PATCH', path(tenant.id, `/${id}`), { status: 'enabled' });
    const { responses, held } = await race(ids.map(enable), /^update "webhook_endpoints"/);
    expect(held).toBe(3);
    expect(responses.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of responses.filter((res) => res.status !== 200)) expectError(res, 409, 'CONFLICT', /has this URL/);
    const list = expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id)), 200, pageSchema(webhookEndpointSchema));
    expect(list.items.filter((endpoint) => endpoint.status === 'enabled')).toHaveLength(1);
  });

  it('admins only: an editor and a viewer get 403 on every webhook route', async () => {
    const tenant = await createTenant();
    const created = await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    for (const role of ['editor', 'viewer'] as const) {
      const member = await addMember(tenant.id, role);
      for (const [method, url, body] of [
        ['GET', path(tenant.id)],
        ['POST', path(tenant.id), { url: newInbox().url, event_types: ['customer.created'] }],
        ...endpointRoutes(tenant.id, created.id),
      ] as const) {
        expectError(await portalCall(member, method, url, body), 403, 'FORBIDDEN', /manage webhooks/);
      }
    }
    const admin = await addMember(tenant.id, 'admin');
    expectOk(await portalCall(admin, 'GET', path(tenant.id)), 200, pageSchema(webhookEndpointSchema));
  });

  it("another tenant's endpoint (on another shard or the same one) is a 404 on every route, exactly like a missing one", async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) {
      const theirs = await createEndpoint(other.owner, other.id, newInbox().url, ['customer.created']);
      for (const [method, url, body] of endpointRoutes(tenant.id, theirs.id)) {
        expectError(await portalCall(tenant.owner, method, url, body), 404, 'NOT_FOUND', /Webhook endpoint not found/);
      }
      // Their tenant path is not ours either.
      expectError(await portalCall(tenant.owner, 'GET', path(other.id)), 404, 'NOT_FOUND');
      expectOk(await portalCall(other.owner, 'GET', path(other.id, `/${theirs.id}/deliveries`)), 200, pageSchema(webhookDeliverySchema));
    }
  });
});
