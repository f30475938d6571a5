import { applyD1Migrations, env } from 'cloudflare:test';
import { shardBindings } from './shards';

// What `npm run db:migrate` applies, from the same migrations/directory/*.sql and
// migrations/shard/*.sql that `wrangler d1 migrations apply` runs in production: the directory's
// to DB, the shard's to every binding SHARDS names (shardBindings() throws if one is missing).
// Separate databases: migrated at once.
await Promise.all([
  applyD1Migrations(env.DB, env.TEST_DIRECTORY_MIGRATIONS),
  ...shardBindings().map(({ db }) => applyD1Migrations(db, env.TEST_SHARD_MIGRATIONS)),
]);
