import { defineConfig } from 'drizzle-kit';

/** A shard's migrations (`npm run db:generate`): every tenant's tables, applied to each binding in SHARDS. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/shard.ts',
  out: './migrations/shard',
});
