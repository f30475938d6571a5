import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testKeys } from './test/support/keys.ts';

const migrations = await readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url)));

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          AUTH_JWKS: JSON.stringify(testKeys.jwks),
          API_KEY_ENCRYPTION_KEY: testKeys.encryptionKey,
          WALLET_MNEMONIC: testKeys.walletMnemonic,
        },
      },
    }),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/support/apply-migrations.ts'],
    testTimeout: 30_000,
  },
});
