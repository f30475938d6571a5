import { describe, expect, it } from 'vitest';
import { LoyaltyApiError } from '../../sdk/src';
import { createTenant, createTestApiKey } from '../support/world';
import { gatewaySdk } from './harness';

/** The SDK's error type: what a partner throws and quotes when reporting a failure. */
describe('SDK LoyaltyApiError', () => {
  it('carries status, code, message and the request id of a real refusal (the body and the header agree)', async () => {
    const tenant = await createTenant('sdk-errors');
    const key = await createTestApiKey(tenant.id);
    const { gateway } = gatewaySdk({ ...key, secret: `${key.secret}x` });
    const result = await gateway.gatewayListTiers();
    const error = new LoyaltyApiError(result.response, result.error);
    expect(error).toBeInstanceOf(Error);
    expect([error.status, error.code, error.message]).toEqual([401, 'AUTH_INVALID_CREDENTIALS', result.error?.message]);
    expect(error.requestId).toMatch(/^req_[a-z2-7]{26}$/);
    expect(error.requestId).toBe(result.response.headers.get('x-request-id'));
    expect(error.requestId).toBe(result.error?.error.request_id);
  });

  it('a call sent with the partner\'s own X-Request-Id fails under that id', async () => {
    const tenant = await createTenant('sdk-errors');
    const key = await createTestApiKey(tenant.id);
    const { gateway } = gatewaySdk({ ...key, secret: `${key.secret}x` });
    const result = await gateway.gatewayListTiers({ headers: { 'X-Request-Id': 'order-service:trace-42' } });
    expect(new LoyaltyApiError(result.response, result.error).requestId).toBe('order-service:trace-42');
  });

  it('a body that is not the envelope (a proxy page): a generic INTERNAL envelope, the request id from the header', () => {
    const response = new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html', 'x-request-id': 'req_from_header' } });
    const error = new LoyaltyApiError(response, '<html>Bad gateway</html>');
    expect([error.status, error.code, error.message]).toEqual([502, 'INTERNAL', 'The API answered 502 without a readable error.']);
    expect(error.requestId).toBe('req_from_header');
  });

  it('an envelope without request_id (an older server): the header; neither: undefined', () => {
    const body = { success: false, data: null, message: 'Gone', errors: [{ path: '', message: 'Gone' }], error: { code: 'NOT_FOUND', message: 'Gone' } };
    expect(new LoyaltyApiError(new Response(null, { status: 404, headers: { 'x-request-id': 'req_h' } }), body).requestId).toBe('req_h');
    expect(new LoyaltyApiError(new Response(null, { status: 404 }), body).requestId).toBeUndefined();
    expect(new LoyaltyApiError(new Response(null, { status: 404 }), body).code).toBe('NOT_FOUND');
  });
});
