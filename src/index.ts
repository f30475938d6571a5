import { createApp } from './app';
import { runScheduled } from './jobs';
import { consumeSettlementBatch } from './queues/settlement';
import { consumeWebhookBatch } from './queues/webhooks';

const app = createApp();

/** Each environment names its queues `loyalty-webhooks` plus a suffix (wrangler.toml). */
const isWebhookQueue = (name: string) => name.startsWith('loyalty-webhooks');

export default {
  fetch: app.fetch,
  // Cron Triggers (wrangler.toml [triggers]); src/jobs maps each cron to its jobs.
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
  // wrangler.toml [[queues.consumers]]: webhook deliveries, and settlement (one message per onchain operation).
  queue: (batch, env) =>
    isWebhookQueue(batch.queue)
      ? consumeWebhookBatch(batch as MessageBatch<import('./env').WebhookMessage>, env)
      : consumeSettlementBatch(batch as MessageBatch<import('./env').SettlementMessage>, env),
} satisfies ExportedHandler<import('./env').Bindings>;
