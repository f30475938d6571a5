/**
 * Builds the bench's world from nothing: fresh secrets, migrations applied to local D1 databases
 * of its own (the directory and the shards), the two tenants created through the Worker's HTTP
 * API, then their customers bulk-loaded into each one's shard with the Worker stopped, and the
 * loaded databases copied for the baseline.
 */
import { randomBytes } from 'node:crypto';
import { experimental_readRawConfig, type Unstable_RawEnvironment } from 'wrangler';
import { migrateAll } from '../../scripts/db-migrate';
import { mintPortalToken } from '../../scripts/lib/portal-token';
import type { DevSigningKey } from '../../scripts/lib/dev-files';
import { openLoader, workerDatabaseIds } from './loader';
import type { BenchOptions } from './options';
import { runWrangler, startDevServer, type DevServer } from './processes';
import { seededRandom } from './sql';
import { copyDatabaseToBaseline, freshState, paths, WORKER_CONFIG, BASELINE_CONFIG, writeManifest, type BenchTenant, type Manifest } from './state';
import { createBenchTenant, type CreatedTenant } from './tenants';
import type { LoadedTenant } from './loader';
import type { GatewayKey } from '../../scripts/lib/api-client';

export const ADMIN_EMAIL = 'bench-admin@example.com';
type Log = (message: string) => void;

/** The directory and every shard of wrangler.toml (scripts/db-migrate.ts), wrangler's output into the migrations log. */
export function migrate(): Promise<void> {
  return migrateAll({ target: 'local', persistTo: paths.workerPersist, config: WORKER_CONFIG }, (args) => runWrangler(args, paths.migrationsLog).then(() => 0));
}

/** The Worker, offline, on its own D1 and KV, with the bench's vars instead of `.dev.vars`. */
export function startWorker(): Promise<DevServer> {
  return startDevServer({ name: 'worker', config: WORKER_CONFIG, persistTo: paths.workerPersist, logFile: paths.workerLog, envFile: paths.envFile, readyPath: '/api/v1/info' });
}

/**
 * The baseline reads and writes the shard `shard` (tenant "large"'s): its config must declare that
 * binding with the Worker's id, or it would read a database of its own, empty.
 */
function checkBaselineShard(shard: string): void {
  const { rawConfig }: { rawConfig: Unstable_RawEnvironment } = experimental_readRawConfig({ config: BASELINE_CONFIG });
  const declared = rawConfig.d1_databases?.find((database) => database.binding === shard);
  const id = declared?.preview_database_id ?? declared?.database_id;
  const workerId = workerDatabaseIds()[shard];
  if (id === undefined || id !== workerId) throw new Error(`${BASELINE_CONFIG} must declare ${shard} with database_id "${workerId}" (wrangler.toml's), as it does the other shards`);
}

export function startBaseline(key: GatewayKey, shard: string): Promise<DevServer> {
  checkBaselineShard(shard);
  return startDevServer({
    name: 'baseline',
    config: BASELINE_CONFIG,
    persistTo: paths.baselinePersist,
    logFile: paths.baselineLog,
    vars: { BENCH_KEY_ID: key.keyId, BENCH_SECRET: key.secret, BENCH_SHARD: shard },
    readyPath: '/hello',
  });
}

function benchTenant(created: CreatedTenant, customers: number, loaded: LoadedTenant): BenchTenant {
  return { id: created.id, slug: created.slug, shard: loaded.shard, customers, apiKey: created.apiKey, benchRewardId: created.benchRewardId, cohort: loaded.largestCohort, sample: loaded.sample };
}

/**
 * Everything a fresh run needs, from an empty state directory to a manifest; the Worker is left
 * stopped (the caller starts it with the baseline once the data is in place).
 */
export async function prepareFresh(options: BenchOptions, log: Log): Promise<{ key: DevSigningKey; manifest: Manifest }> {
  const key = await freshState();
  log('applying migrations to the bench D1 databases (the directory and the shards)…');
  await migrate();

  log('starting the Worker to create the tenants through its API…');
  const worker = await startWorker();
  let small: CreatedTenant;
  let large: CreatedTenant;
  try {
    process.env.LOYALTY_URL = worker.baseUrl; // scripts/lib/api-client.ts sends there
    const token = await mintPortalToken(key, { email: ADMIN_EMAIL });
    small = await createBenchTenant(token, 'small');
    large = await createBenchTenant(token, 'large');
  } finally {
    // One process at a time on the SQLite file: the Worker stops while the loader writes.
    await worker.stop();
  }

  const loader = await openLoader(paths.workerPersist, log);
  let loadedSmall: LoadedTenant;
  let loadedLarge: LoadedTenant;
  try {
    const started = Date.now();
    const plan = (created: CreatedTenant, customers: number, seed: number) => ({
      tenantId: created.id,
      customers,
      redeemedReward: created.redeemedReward,
      attributes: created.attributes,
      random: seededRandom(seed),
    });
    loadedSmall = await loader.load(plan(small, options.small, 1), 'small');
    loadedLarge = await loader.load(plan(large, options.customers, 2), 'large');
    log(`loaded ${(options.small + options.customers).toLocaleString('en')} customers in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await loader.close();
  }

  const manifest: Manifest = {
    adminEmail: ADMIN_EMAIL,
    tenants: { small: benchTenant(small, options.small, loadedSmall), large: benchTenant(large, options.customers, loadedLarge) },
    baselineKey: { keyId: 'bench-baseline', secret: randomBytes(32).toString('hex') },
  };
  writeManifest(manifest);
  copyDatabaseToBaseline();
  return { key, manifest };
}
