/**
 * The two drivers: autocannon at fixed concurrency for throughput, and plain sequential fetches
 * for single-request latency. Both send requests built by a route (bench/lib/routes.ts).
 */
import autocannon from 'autocannon';
import type { BenchRequest } from './requests';

export type LoadResult = {
  /** 2xx responses per second: a route that answers errors fast does not look fast. */
  rps: number;
  /** Latency of 2xx responses, ms (autocannon records whole milliseconds). */
  p50: number;
  p99: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** The first few non-2xx bodies, to say why. */
  samples: string[];
};

const SAMPLE_BODIES = 3;

/** Which request a connection sent last: autocannon answers in order on each connection (no pipelining). */
type ConnectionContext = { label?: string };

/**
 * `connections` connections for `seconds`, each request from `next()` (a fresh one every time).
 * `next` may return a label, which then keys `statuses` (`label status`) for mixes of routes.
 */
export async function drive(input: { baseUrl: string; connections: number; seconds: number; next: () => BenchRequest & { label?: string } }): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  const samples: string[] = [];
  const result = await autocannon({
    url: input.baseUrl,
    connections: input.connections,
    duration: input.seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (request, context: ConnectionContext) => {
          const { label, ...next } = input.next();
          context.label = label;
          return { ...request, ...next };
        },
        onResponse: (status, body, context: ConnectionContext) => {
          const key = context.label ? `${context.label} ${status}` : String(status);
          statuses[key] = (statuses[key] ?? 0) + 1;
          if ((status < 200 || status > 299) && samples.length < SAMPLE_BODIES) samples.push(`${key}: ${body.slice(0, 300)}`);
        },
      },
    ],
  });
  return { rps: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, statuses, errors: result.errors, samples };
}

export type SequentialResult = { medianMs: number; statuses: Record<string, number>; samples: string[] };

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function timed(baseUrl: string, request: BenchRequest): Promise<{ ms: number; status: number; text: string }> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const text = await res.text();
  return { ms: performance.now() - started, status: res.status, text };
}

/**
 * `count` requests of each source, one at a time (no concurrency), the sources taking turns so
 * that all of them see the machine in the same state: the median time to a whole response of each.
 */
export async function sequential(baseUrl: string, count: number, sources: readonly (() => BenchRequest)[]): Promise<SequentialResult[]> {
  const results: { times: number[]; statuses: Record<string, number>; samples: string[] }[] = sources.map(() => ({ times: [], statuses: {}, samples: [] }));
  for (let i = 0; i < count; i += 1) {
    for (const [index, next] of sources.entries()) {
      const result = results[index];
      if (!result) continue;
      const { ms, status, text } = await timed(baseUrl, next());
      result.times.push(ms);
      result.statuses[status] = (result.statuses[status] ?? 0) + 1;
      if ((status < 200 || status > 299) && result.samples.length < SAMPLE_BODIES) result.samples.push(`${status}: ${text.slice(0, 300)}`);
    }
  }
  return results.map(({ times, statuses, samples }) => ({ medianMs: median(times), statuses, samples }));
}
