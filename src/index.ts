import { createApp } from './app';
import { runScheduled } from './jobs';

const app = createApp();

export default {
  fetch: app.fetch,
  // Cron Triggers (wrangler.toml [triggers]); src/jobs maps each cron to its jobs.
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
} satisfies ExportedHandler<import('./env').Bindings>;
