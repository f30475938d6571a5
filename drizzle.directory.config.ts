import { defineConfig } from 'drizzle-kit';

/** The directory's migrations (`npm run db:generate:directory`), applied to the binding DB. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/directory.ts',
  out: './migrations/directory',
});
