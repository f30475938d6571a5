import { createApp } from './app';
import { runScheduled } from './jobs';
import { consumeOperationsBatch } from './queues/operations';
import { consumeSettlementBatch } from './queues/settlement';
import { consumeWebhookBatch } from './queues/webhooks';

const app = createApp();

/** Each environment names its queues `loyalty-webhooks`, `loyalty-operations`... plus a suffix (wrangler.toml). */
const isWebhookQueue = (name: string) => name.startsWith('loyalty-webhooks');
const isOperationsQueue = (name: string) => name.startsWith('loyalty-operations');

export default {
  fetch: app.fetch,
  // Cron Triggers (wrangler.toml [triggers]); src/jobs maps each cron to its jobs.
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
  // wrangler.toml [[queues.consumers]]: webhook deliveries, imports and exports, and settlement (one message per onchain operation).
  queue: (batch, env) => {
    if (isWebhookQueue(batch.queue)) return consumeWebhookBatch(batch as MessageBatch<import('./env').WebhookMessage>, env);
    if (isOperationsQueue(batch.queue)) return consumeOperationsBatch(batch as MessageBatch<import('./env').OperationMessage>, env);
    return consumeSettlementBatch(batch as MessageBatch<import('./env').SettlementMessage>, env);
  },
} satisfies ExportedHandler<import('./env').Bindings>;
