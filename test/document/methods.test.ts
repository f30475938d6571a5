import { describe, expect, it } from 'vitest';
import { call, expectError } from '../support/http';
import { fetchDocument, operations } from '../support/openapi';
import { createTenant, createTestApiKey, gatewayCall, portalCall } from '../support/world';

/** The document's path template with every `{param}` filled by a well-formed id. */
const concrete = (template: string) => `/api/v1${template.replace(/\{[^}]+\}/g, 'x1')}`;

describe('405 METHOD_NOT_ALLOWED', () => {
  it('answers a known path asked with another method with 405, Allow and the envelope', async () => {
    const res = await call('DELETE', '/api/v1/info');
    expectError(res, 405, 'METHOD_NOT_ALLOWED', 'DELETE is not allowed on /api/v1/info; it answers GET, HEAD');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('lists in Allow exactly the methods the document gives each path (HEAD wherever GET)', async () => {
    const { doc } = await fetchDocument();
    const byPath = new Map<string, string[]>();
    for (const { path, method } of operations(doc)) byPath.set(path, [...(byPath.get(path) ?? []), method.toUpperCase()]);
    for (const [path, methods] of byPath) {
      const res = await call('OPTIONS', concrete(path));
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      const expected = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
      expect(res.headers.get('allow')?.split(', ').sort(), path).toEqual(expected.sort());
    }
  });

  it('answers before authentication on both surfaces, and stores no idempotency key', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const noToken = await call('PUT', `/api/v1/tenant/${tenant.id}/rewards`);
    expectError(noToken, 405, 'METHOD_NOT_ALLOWED');
    expect(noToken.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await call('GET', '/api/v1/tenants')).headers.get('allow')).toBe('POST');
    expectError(await call('DELETE', '/api/v1/gateway/xp'), 405, 'METHOD_NOT_ALLOWED');
    const signed = await gatewayCall(key, 'DELETE', '/api/v1/gateway/xp', { idempotencyKey: 'wrong-method' });
    expectError(signed, 405, 'METHOD_NOT_ALLOWED');
    expect(signed.headers.get('allow')).toBe('POST');
    // The key was never claimed: the right request with it is a fresh one (404 for the unknown customer, not a key reuse).
    const body = { user_id: 'cus_missing', type: 'xp_earn', amount: '1' };
    expectError(await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body, idempotencyKey: 'wrong-method' }), 404, 'NOT_FOUND', 'Customer not found');
  });

  it('still answers HEAD where GET is, and 404 for a path no route has', async () => {
    const tenant = await createTenant();
    const head = await call('HEAD', '/api/v1/info');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expectError(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/no-such-thing`), 404, 'NOT_FOUND', 'No route');
    expectError(await call('GET', '/api/v1/no-such-thing'), 404, 'NOT_FOUND', 'No route for GET /api/v1/no-such-thing');
  });
});

describe('415 UNSUPPORTED_MEDIA_TYPE', () => {
  it.each([
    ['no Content-Type', {}],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('says what to send when the body comes with %s', async (_, headers) => {
    const tenant = await createTenant();
    const res = await call('POST', `/api/v1/tenant/${tenant.id}/rewards`, {
      headers: { authorization: `Bearer ${tenant.owner.token}`, ...headers },
      rawBody: '{"title":"Coffee","xp_cost":"10"}',
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');
  });
});
