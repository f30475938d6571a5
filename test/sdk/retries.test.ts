import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../sdk/src';
import { customerSchema } from '../../src/schemas/customer';
import { envelopeOf } from '../../src/lib/envelope';
import { createTenant, createTestApiKey } from '../support/world';
import { BASE_URL, errorResponse, gatewaySdk, portalSdk, recordedSleep, type Sent } from './harness';

async function gatewayTenant() {
  const tenant = await createTenant('sdk-retry');
  return { tenant, key: await createTestApiKey(tenant.id) };
}

/** Answers the first `statuses.length` requests with these responses, then lets the Worker answer. */
const first = (...responses: Array<() => Response>) => (_: Sent, index: number) => responses[index]?.();

describe('SDK retries (statuses injected before the Worker; the retry logic is the SDK\'s own)', () => {
  it.each([
    ['429', () => errorResponse(429, 'RATE_LIMITED')],
    ['500', () => errorResponse(500, 'INTERNAL_ERROR')],
    ['503', () => errorResponse(503, 'SERVICE_UNAVAILABLE')],
  ])('retries a signed GET after %s, signed afresh, until the Worker answers', async (_, injected) => {
    const { key } = await gatewayTenant();
    const { gateway, sent, delays } = gatewaySdk(key, { inject: first(injected, injected) });
    const { response, error } = await gateway.gatewayListTiers();
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(sent).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(sent.every((request) => /^[0-9a-f]{64}$/.test(request.headers.get('x-tenant-signature') ?? ''))).toBe(true);
  });

  it('retries a write after 409 IDEMPOTENCY_KEY_IN_USE and a 503 with the same idempotency key, and it runs once', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent } = gatewaySdk(key, { inject: first(() => errorResponse(409, 'IDEMPOTENCY_KEY_IN_USE'), () => errorResponse(503, 'SERVICE_UNAVAILABLE')) });
    const created = await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-in-flight' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect(sent).toHaveLength(3);
    const keys = new Set(sent.map((request) => request.headers.get('x-idempotency-key')));
    expect(keys.size).toBe(1);
    expect(new Set(sent.map((request) => request.body))).toEqual(new Set([JSON.stringify({ external_id: 'sdk-in-flight' })]));
  });

  it('retries a write whose response was lost after it ran: the retry is the stored response, XP is earned once', async () => {
    const { key } = await gatewayTenant();
    const { gateway } = gatewaySdk(key);
    const userId = envelopeOf(customerSchema).parse((await gateway.gatewayUpsertCustomer({ body: { external_id: 'sdk-lost' } })).data).data.id;
    let calls = 0;
    // The first attempt reaches the Worker and runs; its answer is then lost, as behind a failing proxy.
    const fetch = async (request: Request) => {
      calls += 1;
      const response = await SELF.fetch(request);
      if (calls > 1) return response;
      await response.body?.cancel();
      return errorResponse(502, 'BAD_GATEWAY');
    };
    const flaky = createGatewayClient({ baseUrl: BASE_URL, keyId: key.keyId, secret: key.secret, fetch, retry: recordedSleep() });
    const earned = await flaky.gatewayEarnXp({ body: { user_id: userId, type: 'xp_earn', amount: '10' } });
    expect(earned.response.status, JSON.stringify(earned.error)).toBe(201);
    expect(earned.response.headers.get('idempotent-replayed')).toBe('true');
    expect(calls).toBe(2);
    const customer = await gateway.gatewayGetCustomer({ params: { path: { userId } } });
    expect(envelopeOf(customerSchema).parse(customer.data).data.xp_balance).toBe('10');
  });

  it('does not retry a 409 that is not IDEMPOTENCY_KEY_IN_USE (a conflict is an answer)', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent, delays } = gatewaySdk(key, { inject: first(() => errorResponse(409, 'INSUFFICIENT_XP')) });
    const { response, error } = await gateway.gatewayListTiers();
    expect(response.status).toBe(409);
    expect(error?.error.code).toBe('INSUFFICIENT_XP');
    expect([sent.length, delays.length]).toEqual([1, 0]);
  });

  it('honours Retry-After: the delay asked for is the header\'s, in seconds or as an HTTP date', async () => {
    const { key } = await gatewayTenant();
    const at = new Date(Date.now() + 60_000).toUTCString();
    const { gateway, delays } = gatewaySdk(key, {
      inject: first(() => errorResponse(429, 'RATE_LIMITED', { 'retry-after': '7' }), () => errorResponse(503, 'SERVICE_UNAVAILABLE', { 'retry-after': at })),
    });
    const { response } = await gateway.gatewayListTiers();
    expect(response.status).toBe(200);
    expect(delays[0]).toBe(7000);
    // An HTTP date is a delay from now: at most the minute it names (whole seconds), never more.
    expect(delays[1]).toBeGreaterThan(50_000);
    expect(delays[1]).toBeLessThanOrEqual(60_000);
  });

  it('returns a 429 whose Retry-After is beyond maxDelayMs instead of waiting', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent, delays } = gatewaySdk(key, { inject: first(() => errorResponse(429, 'RATE_LIMITED', { 'retry-after': '120' })), retry: { maxDelayMs: 10_000 } });
    const { response, error } = await gateway.gatewayListTiers();
    expect(response.status).toBe(429);
    expect(error?.error.code).toBe('RATE_LIMITED');
    expect([sent.length, delays.length]).toEqual([1, 0]);
  });

  it('stops after maxRetries and returns the last response; backoff grows with the base delay', async () => {
    const { key } = await gatewayTenant();
    const { gateway, sent, delays } = gatewaySdk(key, { inject: () => errorResponse(503, 'SERVICE_UNAVAILABLE'), retry: { maxRetries: 2, baseDelayMs: 100 } });
    const { response } = await gateway.gatewayListTiers();
    expect(response.status).toBe(503);
    expect(sent).toHaveLength(3);
    // Jittered between half and all of base * 2^retry.
    expect(delays[0]).toBeGreaterThanOrEqual(50);
    expect(delays[0]).toBeLessThanOrEqual(100);
    expect(delays[1]).toBeGreaterThanOrEqual(100);
    expect(delays[1]).toBeLessThanOrEqual(200);
  });

  it('retries a portal read, and never a portal write (no idempotency key: it could run twice)', async () => {
    const tenant = await createTenant('sdk-retry-portal');
    const read = portalSdk(tenant.owner.token, { inject: first(() => errorResponse(503, 'SERVICE_UNAVAILABLE')) });
    const listed = await read.portal.listRewards({ params: { path: { tenantId: tenant.id } } });
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
    expect(read.sent).toHaveLength(2);

    const write = portalSdk(tenant.owner.token, { inject: first(() => errorResponse(503, 'SERVICE_UNAVAILABLE')) });
    const created = await write.portal.createApiKey({ params: { path: { tenantId: tenant.id } }, body: { name: 'never twice' } });
    expect(created.response.status).toBe(503);
    expect(write.sent).toHaveLength(1);
    expect(write.delays).toEqual([]);
    expect(write.sent[0]!.headers.has('x-idempotency-key')).toBe(false);
  });

  it('retries a network failure of a read, and surfaces one of a portal write', async () => {
    const tenant = await createTenant('sdk-retry-network');
    let failures = 0;
    const thrower = (_: Sent, index: number) => {
      if (index > 0) return undefined;
      failures += 1;
      throw new TypeError('network connection lost');
    };
    const read = portalSdk(tenant.owner.token, { inject: thrower });
    expect((await read.portal.getCurrentUser()).response.status).toBe(200);
    const write = portalSdk(tenant.owner.token, { inject: thrower });
    await expect(write.portal.createApiKey({ params: { path: { tenantId: tenant.id } }, body: { name: 'lost' } })).rejects.toThrow('network connection lost');
    expect(failures).toBe(2);
  });
});
