import { Webhook } from 'standardwebhooks';
import { decryptSecret } from '../auth/secret-box';
import type { WebhookMessage } from '../env';
import type { WebhookDeliveryStatus, WebhookEndpoint } from '../db/schema';
import { findEndpoint, tenantHasEnabledEndpoint } from '../data/webhook-endpoints';
import { claimDueDeliveries, findDeliveryPage, freezePayload, leaseDelivery, recordDelivered, recordFailed, resetForReplay } from '../data/webhook-deliveries';
import {
  ATTEMPT_LEASE_MS,
  DELIVERY_TIMEOUT_MS,
  REQUEUE_AFTER_MS,
  failedLongEnough,
  isDelivered,
  retryDelaySeconds,
  targetProblem,
} from '../domain/webhooks';
import { ApiError } from '../lib/errors';
import { log } from '../lib/log';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { WebhookDeliveryView } from '../schemas/webhook';
import { toWebhookDeliveryView } from '../views/webhook';
import { forTenant, type ShardContext, type ServiceContext } from './context';
import { renderEventBody } from './webhook-events';
import type { WebhookSettings } from './webhook-endpoints';

export type WebhookQueue = Pick<Queue<WebhookMessage>, 'sendBatch'>;

const SWEEP_LIMIT = 500;
const SEND_BATCH = 100;

/**
 * Hands due deliveries to the queue (all tenants', or one tenant's right after its write). The
 * claim marks them first, so a send that fails leaves them to the sweep after REQUEUE_AFTER_MS.
 */
export async function enqueueDueDeliveries({ db, now: clock, shard }: ShardContext, queue: WebhookQueue, options: { tenantId?: string } = {}): Promise<number> {
  const now = clock();
  const ids = await claimDueDeliveries(db, {
    nowIso: isoNow(now),
    requeueBeforeIso: isoNow(new Date(now.getTime() - REQUEUE_AFTER_MS)),
    limit: SWEEP_LIMIT,
    tenantId: options.tenantId,
  });
  for (let start = 0; start < ids.length; start += SEND_BATCH) {
    await queue.sendBatch(ids.slice(start, start + SEND_BATCH).map((deliveryId) => ({ body: { deliveryId, shard: shard.name } })));
  }
  return ids.length;
}

/**
 * Right after a tenant's write (in the background, the response already sent): hands the events it
 * recorded to the queue at once instead of at the next minute cron. A tenant without an enabled
 * endpoint costs one remembered lookup a minute per isolate.
 */
export async function enqueueAfterWrite(ctx: ServiceContext, queue: WebhookQueue): Promise<void> {
  if (await tenantHasEnabledEndpoint(ctx.db, ctx.tenantId)) await enqueueDueDeliveries(ctx, queue, { tenantId: ctx.tenantId });
}

/** The secrets that sign now: the current one, and the previous one until it expires. */
async function signingSecrets(endpoint: WebhookEndpoint, encryptionKey: string, now: Date): Promise<string[]> {
  const current = await decryptSecret(encryptionKey, endpoint.secretCiphertext);
  const previousValid = endpoint.previousSecretCiphertext !== null && endpoint.previousSecretExpiresAt !== null && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime();
  return previousValid ? [current, await decryptSecret(encryptionKey, endpoint.previousSecretCiphertext!)] : [current];
}

type AttemptOutcome = { statusCode: number | null; error: string | null };

/**
 * One POST, signed per Standard Webhooks; redirects are not followed, slow answers time out. What
 * a failed attempt records is the status code and our own description, never anything the receiver
 * sent: its body is not read (it would turn a request aimed at an internal service into one whose
 * answer can be read in the delivery log), and neither is the runtime's error text.
 */
async function post(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    await response.body?.cancel().catch(() => undefined);
    if (isDelivered(response.status)) return { statusCode: response.status, error: null };
    const redirect = response.status >= 300 && response.status < 400 ? ': redirects are not followed' : '';
    return { statusCode: response.status, error: `Receiver answered HTTP ${response.status}${redirect}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { statusCode: null, error: timedOut ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : 'Could not connect (no HTTP answer: DNS, TLS or connection failure)' };
  }
}

/**
 * One attempt of one delivery (the queue consumer's work). A delivery that is not pending and due
 * is left alone, so a message that arrives twice sends once. The event's body is rendered on the
 * first attempt and frozen: every later attempt and replay sends the same bytes.
 */
export async function attemptDelivery(ctx: ShardContext, deliveryId: string, settings: WebhookSettings): Promise<WebhookDeliveryStatus | 'skipped'> {
  const { db } = ctx;
  const now = ctx.now();
  const leased = await leaseDelivery(db, deliveryId, isoNow(now), isoNow(new Date(now.getTime() + ATTEMPT_LEASE_MS)));
  if (!leased) return 'skipped';
  const { delivery, endpoint, event } = leased;
  const record = { deliveryId: delivery.id, endpointId: endpoint.id };
  const problem = endpoint.status === 'enabled' ? targetProblem(endpoint.url, settings.allowPrivateTargets) : 'Endpoint disabled';
  if (problem) {
    await recordFailed(db, { ...record, statusCode: null, error: problem, failedAt: isoNow(now), nextAttemptAt: null });
    return 'failed';
  }
  const body = event.payload ?? (await freezePayload(db, event.id, await renderEventBody(forTenant(ctx, event.tenantId), event)));
  const timestamp = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const signatures = (await signingSecrets(endpoint, settings.encryptionKey, now)).map((secret) => new Webhook(secret).sign(event.id, timestamp, body));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'LoyaltyPlatform-Webhooks/1',
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': signatures.join(' '),
  };
  const outcome = await post(endpoint.url, headers, body);
  if (outcome.statusCode !== null && isDelivered(outcome.statusCode)) {
    await recordDelivered(db, { ...record, ...outcome });
    return 'delivered';
  }
  const delay = retryDelaySeconds(delivery.attempts + 1);
  const failingSince = endpoint.failingSince ?? isoNow(now);
  const disabling = failedLongEnough(failingSince, now);
  await recordFailed(db, {
    ...record,
    ...outcome,
    failedAt: isoNow(now),
    nextAttemptAt: delay === null ? null : isoNow(new Date(now.getTime() + delay * 1000)),
    disableReason: disabling ? `Disabled automatically at ${isoNow(now)}: every attempt failed since ${failingSince} (last: ${outcome.error})` : undefined,
  });
  // Ids and times only: the endpoint's URL may carry the partner's own token in its query.
  if (disabling) log('warn', 'webhook endpoint disabled: every attempt failed for too long', { tenant_id: event.tenantId, endpoint_id: endpoint.id, failing_since: failingSince, status_code: outcome.statusCode });
  return delay === null ? 'failed' : 'pending';
}

export async function listWebhookDeliveries({ db, tenantId }: ServiceContext, endpointId: string, params: PageParams & { status?: WebhookDeliveryStatus }): Promise<Page<WebhookDeliveryView>> {
  const [endpoint, { rows, total }] = await Promise.all([findEndpoint(db, tenantId, endpointId), findDeliveryPage(db, tenantId, endpointId, params)]);
  if (!endpoint) throw ApiError.notFound('Webhook endpoint');
  return pageOf(rows.map(toWebhookDeliveryView), total, params);
}

/**
 * Sends a delivery's event again now, with the same `webhook-id` and body (delivered or not). A
 * replay is one more attempt; if it fails, the schedule's remaining tries follow.
 */
export async function replayWebhookDelivery({ db, tenantId, now, shard }: ServiceContext, { endpointId, deliveryId }: { endpointId: string; deliveryId: string }, queue: WebhookQueue) {
  const endpoint = await findEndpoint(db, tenantId, endpointId);
  if (!endpoint) throw ApiError.notFound('Webhook endpoint');
  if (endpoint.status !== 'enabled') throw new ApiError('CONFLICT', 'The endpoint is disabled: enable it before replaying its deliveries');
  const delivery = await resetForReplay(db, tenantId, endpointId, deliveryId, isoNow(now()));
  if (!delivery) throw ApiError.notFound('Webhook delivery');
  await queue.sendBatch([{ body: { deliveryId, shard: shard.name } }]);
  return toWebhookDeliveryView(delivery);
}
