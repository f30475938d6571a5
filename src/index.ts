import { createApp } from './app';
import { runScheduled } from './jobs';
import { consumeSettlementBatch } from './queues/settlement';

const app = createApp();

export default {
  fetch: app.fetch,
  // Cron Triggers (wrangler.toml [triggers]); src/jobs maps each cron to its jobs.
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
  // The settlement queue (wrangler.toml [[queues.consumers]]): one message per onchain operation.
  queue: (batch, env) => consumeSettlementBatch(batch as MessageBatch<import('./env').SettlementMessage>, env),
} satisfies ExportedHandler<import('./env').Bindings>;
