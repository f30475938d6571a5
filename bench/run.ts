/**
 * `npm run bench`: the loyalty Worker against a bare baseline Worker, both under `wrangler dev` on
 * this machine, offline, on a tenant of a chosen size loaded straight into local D1 (issue 10).
 * Prints, and writes to bench/results/latest.md, req/s, p50 and p99 per route with the ratio to the
 * baseline, the single-request scale factor from tenant "small" to "large", and optionally a soak.
 * Every process it starts is stopped on exit, on Ctrl+C and on error. Usage: bench/README.md.
 */
import { existsSync } from 'node:fs';
import { compileContracts } from '../scripts/lib/compile-contracts';
import { readWranglerCrons } from '../scripts/lib/wrangler-vars';
import { scheduledUrl } from '../scripts/lib/cron-ticker';
import { mintPortalToken } from '../scripts/lib/portal-token';
import { sequential } from './lib/load';
import { EXPORTS_MEASUREMENT, measureExport } from './lib/exports';
import { measureRounds, measureScale, soak, type Log, type Servers } from './lib/measure';
import { parseBenchOptions, type BenchOptions } from './lib/options';
import { migrate, prepareFresh, startBaseline, startWorker } from './lib/prepare';
import { IMPORTS, measureImports } from './lib/imports';
import { measureShards, SHARDS_MEASUREMENT } from './lib/shards';
import { stopAll, stopEverythingOnExit } from './lib/processes';
import { writeReport, type Report } from './lib/report';
import { baselineRequests, workerRoutes, type Route } from './lib/routes';
import { copyDatabaseToBaseline, paths, reusedState, type Manifest } from './lib/state';

const log: Log = (message) => console.log(`[bench] ${message}`);

/**
 * What the Worker's crons would have done by now in a deployment that holds this much data
 * (statistics, purges): each cron of wrangler.toml runs once before anything is measured.
 */
async function runCronsOnce(baseUrl: string): Promise<void> {
  for (const cron of readWranglerCrons()) {
    const res = await fetch(scheduledUrl(baseUrl, cron), { signal: AbortSignal.timeout(300_000) });
    if (!res.ok) log(`cron "${cron}" answered ${res.status} (see ${paths.workerLog})`);
  }
}

/** One request of every route on each tenant before measuring, so a broken route is named at once. */
async function smokeCheck(routes: Route[], servers: Servers, manifest: Manifest): Promise<string[]> {
  const failures: string[] = [];
  const baseline = baselineRequests(manifest);
  const [hello, read, insert] = await sequential(servers.baseline, 1, [baseline.hello, baseline.read, baseline.insert]);
  for (const [name, result] of Object.entries({ hello, read, insert })) {
    if (result?.samples.length) failures.push(`baseline ${name}: ${result.samples.join(' | ')}`);
  }
  for (const route of routes) {
    const tenants = [manifest.tenants.small, manifest.tenants.large];
    const results = await sequential(servers.worker, 1, tenants.map((tenant) => () => route.request(tenant, 'load')));
    results.forEach((result, i) => {
      if (result.samples.length > 0) failures.push(`${route.name} (${tenants[i]?.slug}): ${result.samples.join(' | ')}`);
    });
  }
  for (const failure of failures) log(`NOT 2xx: ${failure}`);
  return failures;
}

async function prepared(options: BenchOptions): Promise<{ manifest: Manifest; token: string }> {
  // The Worker imports the compiled contracts (git-ignored, cached): a fresh clone has none yet.
  await compileContracts();
  if (!options.reuse) {
    const { key, manifest } = await prepareFresh(options, log);
    return { manifest, token: await mintPortalToken(key, { email: manifest.adminEmail }) };
  }
  const { key, manifest } = reusedState();
  log(`--reuse: ${paths.manifest} (migrations applied again, in case src/ has new ones)`);
  await migrate();
  if (!existsSync(paths.baselinePersist)) copyDatabaseToBaseline();
  return { manifest, token: await mintPortalToken(key, { email: manifest.adminEmail }) };
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  stopEverythingOnExit(log);
  const { manifest, token } = await prepared(options);
  // With --reuse the sizes are those loaded, whatever the flags say.
  options.customers = manifest.tenants.large.customers;
  options.small = manifest.tenants.small.customers;

  log('starting the Worker and the baseline…');
  const [firstWorker, baseline] = await Promise.all([startWorker(), startBaseline(manifest.baselineKey, manifest.tenants.large.shard)]);
  let worker = firstWorker;
  const servers: Servers = { worker: worker.baseUrl, baseline: baseline.baseUrl };
  log(`Worker ${servers.worker} (log ${paths.workerLog}), baseline ${servers.baseline}`);
  await runCronsOnce(servers.worker);

  // `imports`, `exports` and `shards` are measurements of their own, not routes: `--only imports` (or exports, shards) runs one alone.
  const measurements = [IMPORTS, EXPORTS_MEASUREMENT, SHARDS_MEASUREMENT];
  const routeNames = options.only.filter((name) => !measurements.includes(name));
  const wanted = (measurement: string) => options.only.length === 0 || options.only.includes(measurement);
  const routes = options.only.length > 0 && routeNames.length === 0 ? [] : workerRoutes(manifest, token, routeNames);
  const report: Report = { failures: await smokeCheck(routes, servers, manifest) };
  if (options.scaleRequests > 0) {
    log(`single-request latency: ${options.scaleRequests} sequential requests per route on each tenant…`);
    report.scale = await measureScale(routes, servers, manifest.tenants, options.scaleRequests, log);
  }
  if (options.rounds > 0) {
    const minutes = ((routes.length * 2 + 1) * options.duration * options.rounds) / 60;
    log(`throughput: ${options.rounds} rounds x ${routes.length} routes, ${options.connections} connections, about ${minutes.toFixed(1)} min…`);
    report.rounds = await measureRounds({
      routes,
      baseline: baselineRequests(manifest),
      servers,
      large: manifest.tenants.large,
      rounds: options.rounds,
      connections: options.connections,
      seconds: options.duration,
      log,
    });
  }
  // Local D1 keeps memory for every query it served, in workerd's own isolate (not the Worker's):
  // after the rounds' few hundred thousand queries it reached V8's 1.4 GB limit and workerd aborted
  // (docs/PERFORMANCE.md, "Issue 26"). The measurements after the rounds get a fresh process on the same data.
  if (options.rounds > 0 && [EXPORTS_MEASUREMENT, IMPORTS, SHARDS_MEASUREMENT].some(wanted)) {
    log('restarting the Worker for the measurements after the rounds…');
    await worker.stop();
    worker = await startWorker();
    servers.worker = worker.baseUrl;
  }
  // Exports first: the import measurement adds its customers to tenant "large".
  if (wanted(EXPORTS_MEASUREMENT)) {
    const large = manifest.tenants.large;
    const measure = (kind: 'customers' | 'internal_transactions') =>
      measureExport({ baseUrl: servers.worker, token, tenant: large, processGroup: worker.processGroup, inspectorPort: worker.inspectorPort, workerLog: paths.workerLog, kind });
    log(`export: the ${large.customers.toLocaleString('en')} customers of tenant "large", then its ledger, through the route and the queue…`);
    report.exports = [await measure('customers'), await measure('internal_transactions')];
  }
  if (wanted(IMPORTS)) {
    log(`imports: ${options.importRows.toLocaleString('en')} customers, then their opening balances, through the queue, against a bare batched insert…`);
    report.imports = await measureImports(servers, manifest.tenants.large, token, options.importRows, log);
  }
  if (wanted(SHARDS_MEASUREMENT)) {
    log(`shards: two tenants' concurrent earns on two shards against one, ${Math.max(1, options.rounds)} rounds of ${options.duration} s each…`);
    report.shards = await measureShards({ baseUrl: servers.worker, token, rounds: options.rounds, connections: options.connections, seconds: options.duration, log });
  }
  if (options.soak) {
    log(`soak: ${options.soakSeconds} s at ${options.soakConnections} connections over every route…`);
    report.soak = await soak(routes, servers, manifest.tenants.large, options.soakConnections, options.soakSeconds);
  }
  await stopAll();

  const { text, misses } = writeReport(report, options);
  console.log(`\n${text}`);
  log(`written to bench/results/latest.md${misses.length > 0 ? ` (${misses.length} MISS: a measurement, so the exit code stays 0)` : ''}`);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
    await stopAll();
    process.exit(1);
  },
);
