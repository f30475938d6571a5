import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { webhookDeliveries, webhookEvents, type WebhookEventType } from '../../src/db/schema';
import type { Bindings, WebhookMessage } from '../../src/env';
import worker from '../../src/index';
import { newId } from '../../src/lib/ids';
import { webhookEndpointWithSecretSchema, type WebhookEndpointView } from '../../src/schemas/webhook';
import { webhookEventSchema } from '../../src/schemas/webhook-event';
import { callWorker, expectOk } from './http';
import { portalRequest } from './race';
import { shardsHolding } from './shards';
import { db, type TestMember } from './world';

/** A request as the receiver (test/support/webhook-receiver.ts) recorded it. */
export type ReceivedWebhook = { path: string; headers: Record<string, string>; body: string };

/** A fresh inbox on the receiver and its URL; `query` chooses the receiver's answer (`status=500`, `body=<base64url>`, `redirect=1`, `hang=1`). */
export function newInbox(query = '') {
  const name = newId('inbox');
  return { name, url: `${env.TEST_WEBHOOK_RECEIVER_URL}/hook/${name}${query ? `?${query}` : ''}` };
}

/** What the receiver got in an inbox, oldest first. */
export async function received(inbox: string): Promise<ReceivedWebhook[]> {
  const response = await fetch(`${env.TEST_WEBHOOK_RECEIVER_URL}/received/${inbox}`);
  return (await response.json()) as ReceivedWebhook[];
}

export type TestEndpoint = WebhookEndpointView & { secret: string };

/**
 * Creates an endpoint and waits for the request's background work: a webhook hand-over it began
 * late would otherwise claim the deliveries of the test's next write before that write's own does.
 */
export async function createEndpoint(member: TestMember, tenantId: string, url: string, eventTypes: WebhookEventType[]): Promise<TestEndpoint> {
  const res = await callWorker(portalRequest(member, 'POST', `/api/v1/tenant/${tenantId}/webhook-endpoints`, { url, event_types: eventTypes, description: 'test receiver' }));
  return expectOk(res, 201, webhookEndpointWithSecretSchema);
}

let messageSeq = 0;

/** Hands delivery ids to the Worker's webhook consumer, as the Queues runtime would. */
export async function deliverWebhooks(deliveryIds: readonly string[], runEnv: Bindings = env) {
  const shardOf = await shardsHolding('webhook_deliveries', deliveryIds);
  const messages = deliveryIds.map((deliveryId) => ({ id: `whmsg-${(messageSeq += 1)}`, timestamp: new Date(), attempts: 1, body: { deliveryId, shard: shardOf(deliveryId) } satisfies WebhookMessage }));
  const batch = createMessageBatch<WebhookMessage>('loyalty-webhooks', messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, runEnv);
  return getQueueResult(batch, ctx);
}

export async function deliveriesOf(tenantId: string, endpointId?: string) {
  return db(tenantId)
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, tenantId), endpointId === undefined ? undefined : eq(webhookDeliveries.endpointId, endpointId)))
    .orderBy(webhookDeliveries.createdAt);
}

export async function eventsOf(tenantId: string) {
  return db(tenantId).select().from(webhookEvents).where(eq(webhookEvents.tenantId, tenantId)).orderBy(webhookEvents.createdAt);
}

/** Sends every pending delivery of the tenant once (each is due at once when recorded). */
export async function deliverPending(tenantId: string) {
  const pending = (await deliveriesOf(tenantId)).filter((delivery) => delivery.status === 'pending');
  await deliverWebhooks(pending.map((delivery) => delivery.id));
  return pending;
}

/** Verifies a received request with the Standard Webhooks package and checks the body against the documented event schema. */
export function verifiedEvent(request: ReceivedWebhook, secret: string) {
  const payload = new Webhook(secret).verify(request.body, request.headers);
  const parsed = webhookEventSchema.safeParse(payload);
  expect(parsed.success ? null : parsed.error.issues, request.body).toBeNull();
  return parsed.data!;
}
