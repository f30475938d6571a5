import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { env } from 'cloudflare:test';
import { configOf } from '../../src/config';
import type { Bindings } from '../../src/env';
import { webhookDeliveries, webhookEndpoints } from '../../src/db/schema';
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../../src/domain/webhooks';
import { pageSchema } from '../../src/lib/paging';
import { webhookDeliverySchema, webhookEndpointSchema } from '../../src/schemas/webhook';
import { runContext } from '../../src/services/context';
import { attemptDelivery } from '../../src/services/webhook-deliveries';
import { webhookSettings } from '../../src/services/webhook-endpoints';
import { createCustomerViaApi } from '../support/customers';
import { callWorker, expectError, expectOk } from '../support/http';
import { inspected } from '../support/log-capture';
import { gatewayRequest } from '../support/race';
import { runCron } from '../support/settlement';
import { createEndpoint, deliverPending, deliverWebhooks, deliveriesOf, eventsOf, newInbox, received, verifiedEvent } from '../support/webhooks';
import { createTenant, createTestApiKey, db, gatewayCall, portalCall, shardRun, type TestTenant } from '../support/world';

const path = (tenantId: string, rest = '') => `/api/v1/tenant/${tenantId}/webhook-endpoints${rest}`;
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

/** A tenant with an endpoint on `query`'s receiver behaviour and one customer.created event recorded. */
async function oneEvent(query = '') {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const inbox = newInbox(query);
  const endpoint = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['customer.created']);
  const customer = await createCustomerViaApi(key);
  const [delivery] = await deliveriesOf(tenant.id);
  return { tenant, key, inbox, endpoint, customer, delivery: delivery! };
}

async function deliveryLog(tenant: TestTenant, endpointId: string) {
  return expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id, `/${endpointId}/deliveries`)), 200, pageSchema(webhookDeliverySchema));
}

/** Makes a delivery due now (its schedule said later): the state a later cron run would find. */
async function makeDue(tenantId: string, deliveryId: string) {
  await db(tenantId).update(webhookDeliveries).set({ nextAttemptAt: secondsAgo(1) }).where(eq(webhookDeliveries.id, deliveryId));
}

describe('webhook delivery', () => {
  it('a 2xx is delivered: the log shows one attempt, the status code and delivered_at', async () => {
    const { tenant, endpoint } = await oneEvent();
    await deliverPending(tenant.id);
    const log = await deliveryLog(tenant, endpoint.id);
    expect(log.items).toEqual([expect.objectContaining({ event_type: 'customer.created', status: 'delivered', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null })]);
    expect(log.items[0]!.delivered_at).not.toBeNull();
  });

  it('a failure is retried on the backoff schedule until it is given up after the last attempt', async () => {
    const { tenant, endpoint, inbox, delivery } = await oneEvent('status=503');
    await deliverWebhooks([delivery.id]);
    let [row] = await deliveriesOf(tenant.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503, lastError: 'Receiver answered HTTP 503' });
    const wait = (Date.parse(row!.nextAttemptAt!) - Date.parse(row!.updatedAt)) / 1000;
    expect(Math.round(wait)).toBe(RETRY_DELAYS_SECONDS[0]);

    // A message arriving before the retry is due sends nothing.
    await deliverWebhooks([delivery.id]);
    expect(await received(inbox.name)).toHaveLength(1);

    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt += 1) {
      await makeDue(tenant.id, delivery.id);
      await deliverWebhooks([delivery.id]);
    }
    [row] = await deliveriesOf(tenant.id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    const requests = await received(inbox.name);
    expect(requests).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    const total = RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    expect((await deliveryLog(tenant, endpoint.id)).items[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, next_attempt_at: null });
  });

  it('redirects are not followed: a 302 is a failed attempt and the target is never called', async () => {
    const { tenant, inbox, delivery } = await oneEvent('redirect=1');
    await deliverWebhooks([delivery.id]);
    const [row] = await deliveriesOf(tenant.id);
    expect(row).toMatchObject({ status: 'pending', lastStatusCode: 302 });
    expect(row!.lastError).toMatch(/redirects are not followed/);
    expect(await received(`${inbox.name}-redirected`)).toHaveLength(0);
  });

  it("the receiver's answer is never stored, logged or returned: the log keeps the status code and our own description", async () => {
    const secret = 'db password=hunter2-0xDEADBEEF';
    const encoded = btoa(`internal error; ${secret}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    const { tenant, endpoint, delivery } = await oneEvent(`status=500&body=${encoded}`);
    const logged = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level));
    try {
      await deliverWebhooks([delivery.id]);
      await db(tenant.id).update(webhookEndpoints).set({ failingSince: secondsAgo(3 * 24 * 3600 + 5) }).where(eq(webhookEndpoints.id, endpoint.id));
      await makeDue(tenant.id, delivery.id);
      await deliverWebhooks([delivery.id]); // the second failure disables the endpoint, naming the last one
    } finally {
      for (const spy of logged) spy.mockRestore();
    }
    const log = await portalCall(tenant.owner, 'GET', path(tenant.id, `/${endpoint.id}/deliveries`));
    expect(expectOk(log, 200, pageSchema(webhookDeliverySchema)).items[0]).toMatchObject({ attempts: 2, last_status_code: 500, last_error: 'Receiver answered HTTP 500' });
    const got = await portalCall(tenant.owner, 'GET', path(tenant.id, `/${endpoint.id}`));
    expect(expectOk(got, 200, webhookEndpointSchema).disabled_reason).toMatch(/\(last: Receiver answered HTTP 500\)$/);
    for (const text of [log.text, got.text, JSON.stringify(await deliveriesOf(tenant.id)), JSON.stringify(logged.flatMap((spy) => spy.mock.calls))]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('internal error');
    }
  });

  it('a receiver that does not answer within 10 seconds is a failed attempt', { timeout: 30_000 }, async () => {
    const { tenant, delivery } = await oneEvent('hang=1');
    await deliverWebhooks([delivery.id]);
    const [row] = await deliveriesOf(tenant.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastError: 'No answer within 10 s' });
  });

  it('three days of failures disable the endpoint with the reason, and its pending deliveries are given up', async () => {
    const { tenant, key, endpoint, delivery } = await oneEvent('status=500');
    await createCustomerViaApi(key); // a second pending delivery
    await db(tenant.id).update(webhookEndpoints).set({ failingSince: secondsAgo(3 * 24 * 3600 + 5) }).where(eq(webhookEndpoints.id, endpoint.id));
    await deliverWebhooks([delivery.id]);

    const got = expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id, `/${endpoint.id}`)), 200, webhookEndpointSchema);
    expect(got.status).toBe('disabled');
    expect(got.disabled_reason).toMatch(/^Disabled automatically at .+: every attempt failed since .+ \(last: Receiver answered HTTP 500\)$/);
    expect((await deliveriesOf(tenant.id)).map((row) => row.status)).toEqual(['failed', 'failed']);
    // New changes are not recorded for a disabled endpoint.
    await createCustomerViaApi(key);
    expect(await deliveriesOf(tenant.id)).toHaveLength(2);
    // Replays wait until it is enabled again; enabling clears the reason and the streak.
    expectError(await portalCall(tenant.owner, 'POST', path(tenant.id, `/${endpoint.id}/deliveries/${delivery.id}/replay`)), 409, 'CONFLICT', /disabled/);
    const enabled = expectOk(await portalCall(tenant.owner, 'PATCH', path(tenant.id, `/${endpoint.id}`), { status: 'enabled' }), 200, webhookEndpointSchema);
    expect(enabled).toMatchObject({ status: 'enabled', disabled_reason: null, failing_since: null });
  });

  it('a success ends the failure streak', async () => {
    const { tenant, endpoint, delivery } = await oneEvent();
    await db(tenant.id).update(webhookEndpoints).set({ failingSince: secondsAgo(3600) }).where(eq(webhookEndpoints.id, endpoint.id));
    await deliverWebhooks([delivery.id]);
    const got = expectOk(await portalCall(tenant.owner, 'GET', path(tenant.id, `/${endpoint.id}`)), 200, webhookEndpointSchema);
    expect(got).toMatchObject({ status: 'enabled', failing_since: null });
  });

  it("the three days are the service's clock: the streak starts at its first failure's time, and the endpoint is disabled three days after that", async () => {
    const { tenant, endpoint, delivery } = await oneEvent('status=500');
    const config = configOf({ ...env });
    if (!config.ok) throw new Error('the test environment is misconfigured');
    // A time no test reaches by accident: a stamp equal to it came from the service's clock.
    const start = new Date('2031-05-04T03:02:01.123Z');
    const attemptAt = async (offsetMs: number) => {
      const now = new Date(start.getTime() + offsetMs);
      await db(tenant.id).update(webhookDeliveries).set({ nextAttemptAt: now.toISOString() }).where(eq(webhookDeliveries.id, delivery.id));
      await attemptDelivery(shardRun(tenant.id, { now: () => now }), delivery.id, webhookSettings(config.config));
      const [row] = await db(tenant.id).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      return row!;
    };
    expect(await attemptAt(0)).toMatchObject({ status: 'enabled', failingSince: start.toISOString() });
    expect(await attemptAt(DISABLE_AFTER_MS - 1000)).toMatchObject({ status: 'enabled', failingSince: start.toISOString() });
    const disabled = await attemptAt(DISABLE_AFTER_MS);
    expect(disabled.status).toBe('disabled');
    expect(disabled.disabledReason).toContain(`every attempt failed since ${start.toISOString()}`);
  });

  it('replay sends the same event again (same webhook-id and body, fresh signature)', async () => {
    const { tenant, inbox, endpoint, delivery } = await oneEvent();
    await deliverWebhooks([delivery.id]);
    const replayed = expectOk(await portalCall(tenant.owner, 'POST', path(tenant.id, `/${endpoint.id}/deliveries/${delivery.id}/replay`)), 200, webhookDeliverySchema);
    expect(replayed).toMatchObject({ id: delivery.id, status: 'pending', delivered_at: null });
    await deliverWebhooks([delivery.id]);
    const [first, second] = await received(inbox.name);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(verifiedEvent(second!, endpoint.secret).id).toBe(delivery.eventId);
    expect((await deliveryLog(tenant, endpoint.id)).items[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expectError(await portalCall(tenant.owner, 'POST', path(tenant.id, `/${endpoint.id}/deliveries/whd_missing/replay`)), 404, 'NOT_FOUND', 'Webhook delivery not found');
  });

  it('the same delivery handed over several times at once is sent once', async () => {
    const { tenant, inbox, delivery } = await oneEvent();
    await Promise.all([deliverWebhooks([delivery.id]), deliverWebhooks([delivery.id]), deliverWebhooks([delivery.id, delivery.id])]);
    expect(await received(inbox.name)).toHaveLength(1);
    expect((await deliveriesOf(tenant.id))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('after a rotation both secrets sign, each verifying on its own', async () => {
    const { tenant, inbox, endpoint, delivery } = await oneEvent();
    const rotated = await portalCall(tenant.owner, 'POST', path(tenant.id, `/${endpoint.id}/rotate-secret`));
    const newSecret = (rotated.body as { data: { secret: string } }).data.secret;
    await deliverWebhooks([delivery.id]);
    const [request] = await received(inbox.name);
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifiedEvent(request!, endpoint.secret).type).toBe('customer.created');
    expect(verifiedEvent(request!, newSecret).type).toBe('customer.created');
    expect(() => new Webhook('whsec_' + btoa('not the secret of this endpoint!')).verify(request!.body, request!.headers)).toThrow();
  });

  it('the minute cron hands due deliveries to the queue once (a lost one again after 10 minutes)', async () => {
    const { tenant, delivery } = await oneEvent();
    await runCron(env);
    const [claimed] = await deliveriesOf(tenant.id);
    expect(claimed!.enqueuedAt).not.toBeNull();
    await runCron(env);
    expect((await deliveriesOf(tenant.id))[0]!.enqueuedAt).toBe(claimed!.enqueuedAt);
    await db(tenant.id).update(webhookDeliveries).set({ enqueuedAt: secondsAgo(11 * 60) }).where(eq(webhookDeliveries.id, delivery.id));
    await runCron(env);
    expect(Date.parse((await deliveriesOf(tenant.id))[0]!.enqueuedAt!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a successful write hands its events to the queue at once, without waiting for the cron', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    // callWorker waits for the request's background work (waitUntil), where the hand-over runs.
    const res = await callWorker(await gatewayRequest(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'handed-over' } }));
    expect(res.status, res.text).toBe(201);
    const [delivery] = await deliveriesOf(tenant.id);
    expect(delivery!.enqueuedAt).not.toBeNull();
  });

  it('a hand-over that fails is logged with the request id and left to the minute cron', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    const lines: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation(inspected((line: unknown) => void lines.push(String(line))));
    const queueDown = { sendBatch: () => Promise.reject(new Error('queue unavailable')) } as unknown as Bindings['WEBHOOK_QUEUE'];
    const request = await gatewayRequest(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'queue-down' } });
    request.headers.set('x-request-id', 'req_handover_down');
    const res = await callWorker(request, { ...env, WEBHOOK_QUEUE: queueDown });
    vi.restoreAllMocks();
    expect(res.status, res.text).toBe(201);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'webhook hand-over after a write failed; the minute cron sends them', request_id: 'req_handover_down', tenant_id: tenant.id }),
    );
    // Claimed before the send, so the cron's sweep hands it over once the claim is old enough.
    const [delivery] = await deliveriesOf(tenant.id);
    expect(delivery!.enqueuedAt).not.toBeNull();
  });

  it('outbox: a write that is refused and rolled back records no event', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key);
    await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['xp.transaction.completed', 'customer.status_changed', 'redemption.failed']);
    const overdraw = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/customers/${customer.id}/xp-adjustments`, { amount: '-50', notes: 'too much' });
    expectError(overdraw, 409, 'INSUFFICIENT_XP');
    const badMove = await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/customers/${customer.id}`, { status: 'reinstated' });
    expectError(badMove, 409, 'INVALID_STATUS_TRANSITION');
    expect(await eventsOf(tenant.id)).toEqual([]);
    const earn = await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: '7' } });
    expect(earn.status, earn.text).toBe(201);
    expect((await eventsOf(tenant.id)).map((event) => event.type)).toEqual(['xp.transaction.completed']);
  });
});
