import { applyD1Migrations, env } from 'cloudflare:test';

// The same migrations/*.sql that `wrangler d1 migrations apply` runs in production.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
