/**
 * `npm run bench:profile -- <route> [seconds]`: a CPU profile of the Worker while one bench route
 * runs at the bench's concurrency, taken through `wrangler dev`'s inspector (Chrome DevTools
 * Protocol). Uses the state of the last `npm run bench` (bench/.state). Prints the functions with
 * the most samples, by self and by inclusive time, and writes the profile to
 * bench/results/<route>.cpuprofile (open it in Chrome DevTools, Performance tab). Finds where a
 * route's CPU goes; `npm run bench` stays the measure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mintPortalToken } from '../scripts/lib/portal-token';
import { devtools } from './lib/devtools';
import { drive } from './lib/load';
import { startWorker } from './lib/prepare';
import { stopAll, stopEverythingOnExit } from './lib/processes';
import { summarizeProfile, type CpuProfile } from './lib/profile-summary';
import { workerRoutes } from './lib/routes';
import { reusedState } from './lib/state';

const CONNECTIONS = 16;
const WARM_UP_SECONDS = 3;
/** Finer than V8's default (1 ms): a request takes a few milliseconds of CPU. */
const SAMPLING_MICROSECONDS = 200;
const RESULTS = new URL('./results/', import.meta.url);

async function main(): Promise<void> {
  const [routeName, secondsArg = '8'] = process.argv.slice(2);
  const { key, manifest } = reusedState();
  const token = await mintPortalToken(key, { email: manifest.adminEmail });
  const route = workerRoutes(manifest, token).find((candidate) => candidate.name === routeName);
  if (!route) throw new Error(`usage: npm run bench:profile -- <route> [seconds]; routes: ${workerRoutes(manifest, token).map((r) => r.name).join(', ')}`);
  stopEverythingOnExit(console.log);
  const worker = await startWorker();
  const next = () => route.request(manifest.tenants.large, 'load');
  await drive({ baseUrl: worker.baseUrl, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, next });
  const inspector = await devtools(worker.inspectorPort);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: SAMPLING_MICROSECONDS });
  await inspector.send('Profiler.start');
  const load = await drive({ baseUrl: worker.baseUrl, connections: CONNECTIONS, seconds: Number(secondsArg), next });
  const { profile } = await inspector.send<{ profile: CpuProfile }>('Profiler.stop');
  inspector.close();
  await stopAll();
  mkdirSync(RESULTS, { recursive: true });
  const file = new URL(`${route.name}.cpuprofile`, RESULTS);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`${route.label}: ${Math.round(load.rps)} req/s while profiled (${JSON.stringify(load.statuses)}); profile: ${file.pathname}`);
  console.log(summarizeProfile(profile));
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await stopAll();
    process.exit(1);
  },
);
