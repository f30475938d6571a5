import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { experimental_readRawConfig, type Unstable_RawEnvironment } from 'wrangler';
import type { WranglerRateLimits } from './test/rate-limits/provided.ts';
import { testKeys } from './test/support/keys.ts';

// .env holds wrangler's own settings (no metrics, no Request.cf download), not the Worker's
// secrets: without this the pool loads it as secrets and says so once per test file.
process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV = 'false';

// workerd logs this line when the pool closes a test file's runtime (about one file in four),
// and the pool passes it to stdout: its own filter of such closing lines (handleStructuredLogs in
// @cloudflare/vitest-pool-workers) misses this one. It is no failure (a test cut off mid-way
// fails as a test); only this line is dropped.
const RUNTIME_CLOSED = 'disconnected: WebSocket peer disconnected';
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => String(chunk).includes(RUNTIME_CLOSED) || write(chunk, ...rest)) as typeof stream.write;
}

/** What `npm run db:migrate` applies: the directory's to DB, the shard's to each binding in SHARDS (test/support/apply-migrations.ts). */
const directoryMigrations = await readD1Migrations(fileURLToPath(new URL('./migrations/directory', import.meta.url)));
const shardMigrations = await readD1Migrations(fileURLToPath(new URL('./migrations/shard', import.meta.url)));

/** Each environment's rate limiters and vars: test/rate-limits checks that the vars state the limiters' own numbers. */
const { rawConfig } = experimental_readRawConfig({ config: fileURLToPath(new URL('./wrangler.toml', import.meta.url)) });
const environments: Record<string, Unstable_RawEnvironment> = { '(top level)': rawConfig, ...rawConfig.env };
const wranglerRateLimits = Object.fromEntries(
  Object.entries(environments).map(([name, environment]): [string, WranglerRateLimits] => [name, { ratelimits: environment.ratelimits ?? [], vars: environment.vars ?? {} }]),
);

/** Pure tests (no Worker, no binding): plain Node, no workerd to start per file. */
const PURE_TESTS = ['test/unit/**/*.test.ts'];

/**
 * A workerd test file costs about 6 CPU-seconds before its first test (a fresh Miniflare and
 * runner, storage isolated per file), mostly CPU: one file per core keeps both busy, more only
 * queue (docs/decisions/0090-test-run-time.md). Vitest's default on 2 cores is 1.
 */
const maxWorkers = Math.max(2, availableParallelism());

/**
 * Dependencies reach each test file's runtime without their source maps. Every file's runtime
 * receives every module afresh, and three quarters of those bytes were the dependencies' inline
 * source maps (viem, zod, ...): serialized by the pool, then parsed by workerd, once per file.
 * Our own code keeps its maps, so a failure's stack points at our lines. The code must change for
 * Vite to take the new map, hence the added newline.
 */
const dependenciesWithoutSourceMaps: Plugin = {
  name: 'dependencies-without-source-maps',
  enforce: 'post',
  transform(code, id) {
    if (!id.includes('/node_modules/')) return undefined;
    return { code: `${code}\n`, map: { mappings: '' } };
  },
};

/** The Worker's tests: in workerd through the Workers pool, against real D1, KV, queues and anvil. */
const workersProject = defineConfig({
  plugins: [
    dependenciesWithoutSourceMaps,
    // Function form: the anvil addresses only exist once the global setup has run.
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_DIRECTORY_MIGRATIONS: directoryMigrations,
          TEST_SHARD_MIGRATIONS: shardMigrations,
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
        // An empty database beside DB and the shards, for test/points/migration.test.ts alone: it
        // applies the shard migrations up to a point, writes rows under that old schema, then
        // applies the rest (DB and the shards have every migration before any test runs). Storage
        // is per test file, so it starts empty.
        d1Databases: { TEST_MIGRATION_DB: 'loyalty-migration-test' },
        // Tests drive the settlement consumer themselves (createMessageBatch + worker.queue, with a
        // per-file funded relayer). Options merge over wrangler.toml and cannot delete its consumer,
        // so the producer is pointed at a queue nobody consumes: send() succeeds, nothing is delivered.
        // The webhook consumer likewise (test/webhooks call it with the delivery ids).
        queueProducers: {
          SETTLEMENT_QUEUE: { queueName: 'loyalty-settlement-test-undelivered' },
          WEBHOOK_QUEUE: { queueName: 'loyalty-webhooks-test-undelivered' },
          // And the operations consumer (test/operations call it with the import chunks and exports).
          OPERATIONS_QUEUE: { queueName: 'loyalty-operations-test-undelivered' },
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
    name: 'workers',
    include: ['test/**/*.test.ts'],
    exclude: PURE_TESTS,
    globalSetup: ['./test/support/global-setup.ts'],
    // test/fuzz reads these (seed, runs per operation, survey mode); see docs/decisions/0051-fuzzing.md.
    provide: { fuzz: { seed: process.env.FUZZ_SEED, runs: process.env.FUZZ_RUNS, survey: process.env.FUZZ_SURVEY }, wranglerRateLimits },
    // Migrations first; then every log line the Worker writes is checked (test/support/log-capture.ts).
    setupFiles: ['./test/support/apply-migrations.ts', './test/support/log-capture.ts'],
    testTimeout: 30_000,
    // Pre-bundles viem (about halves its load time per test file). Never add viem/chains here:
    // it breaks the build (node:worker_threads); tests use defineChain instead. standardwebhooks is
    // pre-bundled too: its published source map names files it does not ship (a warning per file).
    deps: { optimizer: { ssr: { enabled: true, include: ['viem', 'viem/accounts', 'standardwebhooks'] } } },
  },
});

export default defineConfig({
  test: {
    maxWorkers,
    projects: [workersProject, { test: { name: 'pure', include: PURE_TESTS, environment: 'node' } }],
  },
});
