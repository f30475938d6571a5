import type { D1Migration } from 'cloudflare:test';
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      /** migrations/directory and migrations/shard (vitest.config.mts), applied by test/support/apply-migrations.ts. */
      TEST_DIRECTORY_MIGRATIONS: D1Migration[];
      TEST_SHARD_MIGRATIONS: D1Migration[];
      /** wrangler.toml's var: "SHARD_0,SHARD_1" (test/support/shards.ts reads it). */
      SHARDS: string;
      /** The two shards of wrangler.toml's top level; test/support/shards.ts reaches them by name. */
      SHARD_0: D1Database;
      SHARD_1: D1Database;
      /** An empty database (vitest.config.mts) that test/points/migration.test.ts migrates step by step. */
      TEST_MIGRATION_DB: D1Database;
      /** RPC of the automining anvil (chain 31337), started by test/support/global-setup.ts. */
      TEST_RPC_URL: string;
      /** RPC of the anvil (chain 31338) reserved for the stuck-transaction test. */
      TEST_MANUAL_RPC_URL: string;
      /** Limiters of 3 requests per 60 s (vitest.config.mts), for test/rate-limits. */
      TEST_TIGHT_GATEWAY_LIMITER: RateLimit;
      TEST_TIGHT_PORTAL_LIMITER: RateLimit;
      /** A tenant limiter of 5 requests per 60 s (vitest.config.mts), for test/rate-limits. */
      TEST_TIGHT_TENANT_LIMITER: RateLimit;
      /** The webhook receiver (test/support/webhook-receiver.ts), started by the global setup. */
      TEST_WEBHOOK_RECEIVER_URL: string;
    }
  }
}
