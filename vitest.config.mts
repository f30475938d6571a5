import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testKeys } from './test/support/keys.ts';

const migrations = await readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url)));

export default defineConfig({
  plugins: [
    // Function form: the anvil addresses only exist once the global setup has run.
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          AUTH_JWKS: JSON.stringify(testKeys.jwks),
          API_KEY_ENCRYPTION_KEY: testKeys.encryptionKey,
          WALLET_MNEMONIC: testKeys.walletMnemonic,
          CHAINS: JSON.stringify({ '31337': inject('rpcUrl'), '31338': inject('manualRpcUrl') }),
          RELAYER_PRIVATE_KEY: testKeys.relayerPrivateKey,
          CONFIRMATIONS: '1',
          TEST_RPC_URL: inject('rpcUrl'),
          TEST_MANUAL_RPC_URL: inject('manualRpcUrl'),
        },
        // Tests drive the settlement consumer themselves (createMessageBatch + worker.queue, with a
        // per-file funded relayer). Options merge over wrangler.toml and cannot delete its consumer,
        // so the producer is pointed at a queue nobody consumes: send() succeeds, nothing is delivered.
        queueProducers: { SETTLEMENT_QUEUE: { queueName: 'loyalty-settlement-test-undelivered' } },
      },
    })),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    // test/fuzz reads these (seed, runs per operation, survey mode); see docs/DECISIONS.md "Fuzzing".
    provide: { fuzz: { seed: process.env.FUZZ_SEED, runs: process.env.FUZZ_RUNS, survey: process.env.FUZZ_SURVEY } },
    setupFiles: ['./test/support/apply-migrations.ts'],
    testTimeout: 30_000,
    // Pre-bundles viem (about halves its load time per test file). Never add viem/chains here:
    // it breaks the build (node:worker_threads); tests use defineChain instead.
    deps: { optimizer: { ssr: { enabled: true, include: ['viem', 'viem/accounts'] } } },
  },
});
