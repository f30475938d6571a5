import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../src/middleware/body-limit';
import type { Bindings } from '../src/env';
import { BASE, call, callWorker, expectError } from './support/http';
import { errorLog } from './support/logs';
import { createTenant, createTestApiKey, gatewayCall, portalCall, shardD1, type TestTenant } from './support/world';

const keysPath = (tenant: TestTenant) => `/api/v1/tenant/${tenant.id}/api-keys`;
const bearer = (tenant: TestTenant) => ({ authorization: `Bearer ${tenant.owner.token}` });
const oversized = () => JSON.stringify({ name: 'k', label: 'x'.repeat(MAX_BODY_BYTES) });

describe('error envelope', () => {
  it('422: one entry per field path, nested paths joined with dots', async () => {
    const tenant = await createTenant();
    const body = { name: '', rules: { operator: 'xor', predicates: [{ type: 'attribute', op: 'nope' }] } };
    const error = expectError(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/cohorts`, body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path).sort()).toEqual(['name', 'rules.operator', 'rules.predicates.0.op']);
    expect(error.errors.every((entry) => entry.message.length > 0)).toBe(true);
  });

  it('422: an unknown body field is reported under its own name, also when nested', async () => {
    const tenant = await createTenant();
    const top = expectError(await portalCall(tenant.owner, 'POST', keysPath(tenant), { name: 'k', owner: 'me' }), 422, 'VALIDATION_FAILED');
    expect(top.errors).toEqual([{ path: 'owner', message: 'Unknown field' }]);
    const body = { name: 'c', rules: { operator: 'and', predicates: [{ type: 'status', op: 'eq', value: 'active', colour: 'red' }] } };
    const nested = expectError(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/cohorts`, body), 422, 'VALIDATION_FAILED');
    expect(nested.errors).toEqual([{ path: 'rules.predicates.0.colour', message: 'Unknown field' }]);
  });

  it('400 MALFORMED_REQUEST for a body that is not JSON', async () => {
    const tenant = await createTenant();
    const res = await call('POST', keysPath(tenant), { headers: { ...bearer(tenant), 'content-type': 'application/json' }, rawBody: '{"name": "k",' });
    expectError(res, 400, 'MALFORMED_REQUEST');
  });

  it('413 PAYLOAD_TOO_LARGE for a body over 64 KiB with Content-Length', async () => {
    const tenant = await createTenant();
    const res = await call('POST', keysPath(tenant), { headers: { ...bearer(tenant), 'content-type': 'application/json' }, rawBody: oversized() });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE', `The body exceeds ${MAX_BODY_BYTES} bytes`);
  });

  it('413 PAYLOAD_TOO_LARGE for a streamed body over 64 KiB without Content-Length', async () => {
    const tenant = await createTenant();
    const bytes = new TextEncoder().encode(oversized());
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 8192) controller.enqueue(bytes.slice(offset, offset + 8192));
        controller.close();
      },
    });
    const request = new Request(`${BASE}${keysPath(tenant)}`, { method: 'POST', headers: { ...bearer(tenant), 'content-type': 'application/json' }, body: stream });
    expect(request.headers.has('content-length')).toBe(false);
    const response = await SELF.fetch(request);
    const text = await response.text();
    expectError({ status: response.status, headers: response.headers, body: JSON.parse(text), text }, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('413 PAYLOAD_TOO_LARGE on a gateway write too, before authentication and idempotency', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const body = { user_id: 'cus_x', type: 'xp_earn', amount: '1', notes: 'x'.repeat(MAX_BODY_BYTES) };
    const res = await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body, idempotencyKey: 'too-big' });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE', `The body exceeds ${MAX_BODY_BYTES} bytes`);
    // Not stored: the same key is free for the corrected request.
    expectError(await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { ...body, notes: 'x' }, idempotencyKey: 'too-big' }), 404, 'NOT_FOUND', 'Customer not found');
  });

  it('accepts a body of exactly 64 KiB (the limit is inclusive)', async () => {
    const tenant = await createTenant();
    const filler = MAX_BODY_BYTES - JSON.stringify({ name: 'k', owner: '' }).length;
    const res = await call('POST', keysPath(tenant), { headers: { ...bearer(tenant), 'content-type': 'application/json' }, rawBody: JSON.stringify({ name: 'k', owner: 'x'.repeat(filler) }) });
    expectError(res, 422, 'VALIDATION_FAILED');
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['no content type', {}],
  ])('415 UNSUPPORTED_MEDIA_TYPE for a JSON body sent as %s', async (_case, headers) => {
    const tenant = await createTenant();
    const res = await call('POST', keysPath(tenant), { headers: { ...bearer(tenant), ...headers }, rawBody: '{"name":"k"}' });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');
  });

  it('404 NOT_FOUND for an unknown route; outside /api/v1 it says where the API and its docs are (a known route with another method: test/document/methods.test.ts)', async () => {
    expectError(await call('GET', '/api/v1/no-such-thing'), 404, 'NOT_FOUND', 'No route for GET /api/v1/no-such-thing');
    // Outside /api/ a built CMS answers (test/cms); whether this checkout built one must not matter here.
    const withoutCms = { ...env, ASSETS: { fetch: async () => new Response('Not Found', { status: 404 }) } } as unknown as Bindings;
    const rootResponse = await callWorker(new Request(`${BASE}/`), withoutCms);
    const root = expectError(rootResponse, 404, 'NOT_FOUND', 'No route for GET /. The API is under /api/v1: its reference is at /api/v1/docs');
    expect(root.message).toContain('its OpenAPI document at /api/v1/openapi.json');
    expect(rootResponse.headers.get('link')).toBe('</api/v1/docs>; rel="service-doc", </api/v1/openapi.json>; rel="service-desc"');
    expect((await call('GET', '/api/v1/no-such-thing')).headers.get('link')).toBeNull();
  });

  it('500 INTERNAL leaks no stack, SQL or driver text, only the request id', async () => {
    const tenant = await createTenant();
    // Make D1 fail for real: the route's table is gone (restored afterwards; storage is per file).
    await shardD1(tenant.id).prepare('ALTER TABLE api_keys RENAME TO api_keys_hidden').run();
    const logged = errorLog();
    try {
      const res = await call('GET', keysPath(tenant), { headers: { ...bearer(tenant), 'x-request-id': 'req-test-500' } });
      const error = expectError(res, 500, 'INTERNAL', 'Internal error (request id req-test-500)');
      expect(error).toEqual({
        success: false,
        data: null,
        errors: [{ path: '', message: 'Internal error (request id req-test-500)' }],
        message: 'Internal error (request id req-test-500)',
        error: { code: 'INTERNAL', message: 'Internal error (request id req-test-500)', request_id: 'req-test-500' },
      });
      expect(res.headers.get('x-request-id')).toBe('req-test-500');
      expect(res.text).not.toMatch(/api_keys|select|sqlite|D1_|no such table|at \w+ \(/i);
      // The details go to the log only, with the request id that the answer names.
      expect(logged()).toMatch(/"request_id":"req-test-500".*no such table: api_keys/);
    } finally {
      await shardD1(tenant.id).prepare('ALTER TABLE api_keys_hidden RENAME TO api_keys').run();
    }
  });

  it('500 INTERNAL: the id made for a request without one is in the body, the header and the log line alike', async () => {
    const tenant = await createTenant();
    await shardD1(tenant.id).prepare('ALTER TABLE api_keys RENAME TO api_keys_hidden').run();
    const logged = errorLog();
    try {
      const res = await call('GET', keysPath(tenant), { headers: bearer(tenant) });
      const requestId = expectError(res, 500, 'INTERNAL').error.request_id;
      expect(requestId).toMatch(/^req_[a-z2-7]{26}$/);
      expect(res.headers.get('x-request-id')).toBe(requestId);
      expect(logged()).toContain(`"request_id":"${requestId}"`);
    } finally {
      await shardD1(tenant.id).prepare('ALTER TABLE api_keys_hidden RENAME TO api_keys').run();
    }
  });
});

describe('request id', () => {
  it('every failure names its request: error.request_id is the X-Request-Id header, fresh per request', async () => {
    const first = expectError(await call('GET', '/api/v1/no-such-thing'), 404, 'NOT_FOUND');
    const second = expectError(await call('GET', '/api/v1/no-such-thing'), 404, 'NOT_FOUND');
    expect(first.error.request_id).toMatch(/^req_[a-z2-7]{26}$/);
    expect(second.error.request_id).not.toBe(first.error.request_id);
  });

  it('a success carries X-Request-Id too: an API answer and a CMS page', async () => {
    const tenant = await createTenant();
    const res = await portalCall(tenant.owner, 'GET', keysPath(tenant));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[a-z2-7]{26}$/);
    const page = { ...env, ASSETS: { fetch: async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } }) } } as unknown as Bindings;
    const cms = await callWorker(new Request(`${BASE}/t/ten_x/customers`), page);
    expect(cms.status).toBe(200);
    expect(cms.headers.get('x-request-id')).toMatch(/^req_[a-z2-7]{26}$/);
  });

  it('a failure outside /api/v1, before the API middleware runs, names its request as well', async () => {
    const withoutCms = { ...env, ASSETS: { fetch: async () => new Response('Not Found', { status: 404 }) } } as unknown as Bindings;
    const res = await callWorker(new Request(`${BASE}/api/v2/customers`, { headers: { 'x-request-id': 'partner-trace.7' } }), withoutCms);
    expect(expectError(res, 404, 'NOT_FOUND').error.request_id).toBe('partner-trace.7');
  });

  it.each([
    ['a safe id of the caller: adopted', 'partner-trace:42.1', (id: string) => expect(id).toBe('partner-trace:42.1')],
    ['an unsafe one (a quote and a space): replaced by a new id', 'abc" level="error', (id: string) => expect(id).toMatch(/^req_[a-z2-7]{26}$/)],
    ['one of 129 characters: replaced by a new id', 'r'.repeat(129), (id: string) => expect(id).toMatch(/^req_[a-z2-7]{26}$/)],
  ])('X-Request-Id sent with a request that fails, %s', async (_case, sent, check) => {
    const res = await call('GET', '/api/v1/user/me', { headers: { 'x-request-id': sent } });
    check(expectError(res, 401, 'UNAUTHENTICATED').error.request_id);
  });
});
