/**
 * The measurements: every route once as a smoke check, the single-request scale factor (tenant
 * "small" against "large"), the interleaved throughput rounds against the baseline, and the soak.
 */
import { drive, sequential, type LoadResult } from './load';
import type { BaselineKind, Route } from './routes';
import { pick, type BenchRequest } from './requests';
import type { BenchTenant } from './state';

export type Servers = { worker: string; baseline: string };
export type Log = (message: string) => void;

export type ScaleRow = { route: Route; smallMs: number; largeMs: number; statuses: Record<string, number>; samples: string[] };

/** Sequential requests of every route on both tenants, a small one and a large one in turn. */
export async function measureScale(routes: Route[], servers: Servers, tenants: { small: BenchTenant; large: BenchTenant }, count: number, log: Log): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  for (const route of routes) {
    const [small, large] = await sequential(servers.worker, count, [() => route.request(tenants.small, 'scale'), () => route.request(tenants.large, 'scale')]);
    if (!small || !large) throw new Error('sequential gave no result');
    const statuses: Record<string, number> = {};
    for (const [status, n] of [...Object.entries(small.statuses), ...Object.entries(large.statuses)]) statuses[status] = (statuses[status] ?? 0) + n;
    rows.push({ route, smallMs: small.medianMs, largeMs: large.medianMs, statuses, samples: [...small.samples, ...large.samples] });
    log(`scale ${route.name}: small ${small.medianMs.toFixed(1)} ms, large ${large.medianMs.toFixed(1)} ms`);
  }
  return rows;
}

export type RoundsRow = { route: Route; runs: LoadResult[]; baselineRuns: LoadResult[] };
export type Rounds = { rows: RoundsRow[]; hello: LoadResult[] };

/**
 * For each round and route: the baseline counterpart and the route back to back (the order
 * alternates by round), so both sides of a ratio see the machine in the same state.
 */
export async function measureRounds(input: {
  routes: Route[];
  baseline: Record<BaselineKind | 'hello', () => BenchRequest>;
  servers: Servers;
  large: BenchTenant;
  rounds: number;
  connections: number;
  seconds: number;
  log: Log;
}): Promise<Rounds> {
  const { servers, connections, seconds, log } = input;
  const rows: RoundsRow[] = input.routes.map((route) => ({ route, runs: [], baselineRuns: [] }));
  const hello: LoadResult[] = [];
  const show = (name: string, result: LoadResult) =>
    `${name} ${result.rps.toFixed(0)} req/s p50 ${result.p50} ms${Object.keys(result.statuses).some((s) => !s.startsWith('2')) ? ` statuses ${JSON.stringify(result.statuses)}` : ''}`;
  for (let round = 1; round <= input.rounds; round += 1) {
    hello.push(await drive({ baseUrl: servers.baseline, connections, seconds, next: input.baseline.hello }));
    for (const row of rows) {
      const runBaseline = async () => row.baselineRuns.push(await drive({ baseUrl: servers.baseline, connections, seconds, next: input.baseline[row.route.counterpart] }));
      const runRoute = async () => row.runs.push(await drive({ baseUrl: servers.worker, connections, seconds, next: () => row.route.request(input.large, 'load') }));
      if (round % 2 === 1) {
        await runBaseline();
        await runRoute();
      } else {
        await runRoute();
        await runBaseline();
      }
      const [mine, theirs] = [row.runs.at(-1), row.baselineRuns.at(-1)];
      if (mine && theirs) log(`round ${round}/${input.rounds} ${show(row.route.name, mine)} | ${show(`baseline ${row.route.counterpart}`, theirs)}`);
    }
  }
  return { rows, hello };
}

/** A mix of every route (each request a random one) at high concurrency, with statuses per route. */
export async function soak(routes: Route[], servers: Servers, large: BenchTenant, connections: number, seconds: number): Promise<LoadResult> {
  return drive({
    baseUrl: servers.worker,
    connections,
    seconds,
    next: () => {
      const route = pick(routes);
      return { ...route.request(large, 'load'), label: route.name };
    },
  });
}
