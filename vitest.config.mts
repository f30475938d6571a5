import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { experimental_readRawConfig, type Unstable_RawEnvironment } from 'wrangler';
import type { WranglerRateLimits } from './test/rate-limits/provided.ts';
import { testKeys } from './test/support/keys.ts';

const migrations = await readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url)));

/** Each environment's rate limiters and vars: test/rate-limits checks that the vars state the limiters' own numbers. */
const { rawConfig } = experimental_readRawConfig({ config: fileURLToPath(new URL('./wrangler.toml', import.meta.url)) });
const environments: Record<string, Unstable_RawEnvironment> = { '(top level)': rawConfig, ...rawConfig.env };
const wranglerRateLimits = Object.fromEntries(
  Object.entries(environments).map(([name, environment]): [string, WranglerRateLimits] => [name, { ratelimits: environment.ratelimits ?? [], vars: environment.vars ?? {} }]),
);

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
          // Each test file's relayer is funded on 31337 only: a low balance is logged where a test asks for it (settlement/relayer-limits).
          RELAYER_MIN_BALANCE: '0',
          TEST_RPC_URL: inject('rpcUrl'),
          TEST_MANUAL_RPC_URL: inject('manualRpcUrl'),
          TEST_WEBHOOK_RECEIVER_URL: inject('webhookReceiverUrl'),
        },
        // Tests drive the settlement consumer themselves (createMessageBatch + worker.queue, with a
        // per-file funded relayer). Options merge over wrangler.toml and cannot delete its consumer,
        // so the producer is pointed at a queue nobody consumes: send() succeeds, nothing is delivered.
        // The webhook consumer likewise (test/webhooks call it with the delivery ids).
        queueProducers: {
          SETTLEMENT_QUEUE: { queueName: 'loyalty-settlement-test-undelivered' },
          WEBHOOK_QUEUE: { queueName: 'loyalty-webhooks-test-undelivered' },
        },
        // wrangler.toml's own limiters are out of reach of any test (1,000,000 per 60 s); test/rate-limits
        // hands the Worker these instead, to reach a limit in a few requests.
        ratelimits: {
          TEST_TIGHT_GATEWAY_LIMITER: { simple: { limit: 3, period: 60 } },
          TEST_TIGHT_PORTAL_LIMITER: { simple: { limit: 3, period: 60 } },
          // Per tenant: more than one key's 3, fewer than two keys' 6 (the budget keys share).
          TEST_TIGHT_TENANT_LIMITER: { simple: { limit: 5, period: 60 } },
        },
      },
    })),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    // test/fuzz reads these (seed, runs per operation, survey mode); see docs/DECISIONS.md "Fuzzing".
    provide: { fuzz: { seed: process.env.FUZZ_SEED, runs: process.env.FUZZ_RUNS, survey: process.env.FUZZ_SURVEY }, wranglerRateLimits },
    setupFiles: ['./test/support/apply-migrations.ts'],
    testTimeout: 30_000,
    // Pre-bundles viem (about halves its load time per test file). Never add viem/chains here:
    // it breaks the build (node:worker_threads); tests use defineChain instead. standardwebhooks is
    // pre-bundled too: its published source map names files it does not ship (a warning per file).
    deps: { optimizer: { ssr: { enabled: true, include: ['viem', 'viem/accounts', 'standardwebhooks'] } } },
  },
});
