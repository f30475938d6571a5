import type { Context, Env } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Bindings } from '../env';
import type { Shard } from '../data/shards';
import { forTenant, onShard, runContext } from '../services/context';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';
import { enqueueAfterWrite } from '../services/webhook-deliveries';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After a successful write, hands the webhook events it recorded (by trigger, in its own
 * transaction) to the queue in the background, so receivers hear of it within seconds; the
 * minute cron is the safety net that needs nothing from here.
 *
 * @example app.use('*', dispatchWebhooksAfterWrites((c) => c.get('gatewayAuth').tenantId))
 */
export function dispatchWebhooksAfterWrites<E extends Env & { Bindings: Bindings; Variables: { shard: Shard; requestId: string } }>(tenantOf: (c: Context<E>) => string | undefined) {
  return createMiddleware<E>(async function dispatchWebhooksAfterWrites(c, next) {
    await next();
    if (READS.has(c.req.method) || c.res.status >= 300) return;
    const tenantId = tenantOf(c);
    if (tenantId === undefined) return;
    const shard = c.get('shard');
    const requestId = c.get('requestId');
    // Begun a task later, once the response is handed to the runtime: the request's own round trips stay its own.
    const work = new Promise((resolve) => setTimeout(resolve, 0))
      .then(() => enqueueAfterWrite(forTenant(onShard(runContext(c.env, { requestId }), shard), tenantId), c.env.WEBHOOK_QUEUE))
      .catch((error: unknown) =>
        log('warn', 'webhook hand-over after a write failed; the minute cron sends them', { request_id: requestId, tenant_id: tenantId, reason: reasonOf(error) }),
      );
    c.executionCtx.waitUntil(work);
  });
}
