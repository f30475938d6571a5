/**
 * Builds the bench's world from nothing: fresh secrets, migrations applied to a local D1 of its
 * own, the two tenants created through the Worker's HTTP API, then their customers bulk-loaded
 * into that D1 with the Worker stopped, and the loaded database copied for the baseline.
 */
import { randomBytes } from 'node:crypto';
import { mintPortalToken } from '../../scripts/lib/portal-token';
import type { DevSigningKey } from '../../scripts/lib/dev-files';
import { openLoader } from './loader';
import type { BenchOptions } from './options';
import { runWrangler, startDevServer, type DevServer } from './processes';
import { seededRandom } from './sql';
import { copyDatabaseToBaseline, freshState, paths, WORKER_CONFIG, BASELINE_CONFIG, writeManifest, type BenchTenant, type Manifest } from './state';
import { createBenchTenant, type CreatedTenant } from './tenants';
import type { LoadedTenant } from './loader';
import type { GatewayKey } from '../../scripts/lib/api-client';

export const ADMIN_EMAIL = 'bench-admin@example.com';
type Log = (message: string) => void;

export function migrate(): Promise<void> {
  return runWrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', paths.workerPersist, '-c', WORKER_CONFIG], paths.migrationsLog);
}

/** The Worker, offline, on its own D1 and KV, with the bench's vars instead of `.dev.vars`. */
export function startWorker(): Promise<DevServer> {
  return startDevServer({ name: 'worker', config: WORKER_CONFIG, persistTo: paths.workerPersist, logFile: paths.workerLog, envFile: paths.envFile, readyPath: '/api/v1/info' });
}

export function startBaseline(key: GatewayKey): Promise<DevServer> {
  return startDevServer({
    name: 'baseline',
    config: BASELINE_CONFIG,
    persistTo: paths.baselinePersist,
    logFile: paths.baselineLog,
    vars: { BENCH_KEY_ID: key.keyId, BENCH_SECRET: key.secret },
    readyPath: '/hello',
  });
}

function benchTenant(created: CreatedTenant, customers: number, loaded: LoadedTenant): BenchTenant {
  return { id: created.id, slug: created.slug, customers, apiKey: created.apiKey, benchRewardId: created.benchRewardId, cohort: loaded.largestCohort, sample: loaded.sample };
}

/**
 * Everything a fresh run needs, from an empty state directory to a manifest; the Worker is left
 * stopped (the caller starts it with the baseline once the data is in place).
 */
export async function prepareFresh(options: BenchOptions, log: Log): Promise<{ key: DevSigningKey; manifest: Manifest }> {
  const key = await freshState();
  log('applying migrations to the bench D1…');
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
