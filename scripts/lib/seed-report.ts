/**
 * What the seed steps share: the step report, deterministic idempotency keys, list helpers.
 */
import { createHash } from 'node:crypto';
import { apiCall, dataOf, errorCodeOf, type ApiResponse } from './api-client';

export type Page<T> = { items: T[] };

/** Prints each step's outcome; failures show the request, status and body, and are counted. */
export class Report {
  failures = 0;
  /** Routes that answered "No route" (not built yet): tried once, then skipped. */
  private readonly missingRoutes = new Set<string>();

  /** True when `route` already answered "No route"; the step is then skipped quietly. */
  routeMissing(route: string): boolean {
    return this.missingRoutes.has(route);
  }

  ok(label: string, detail = ''): void {
    console.log(`  ✓ ${label}${detail ? ` (${detail})` : ''}`);
  }

  skip(label: string, why: string): void {
    console.log(`  - ${label}: ${why}`);
  }

  fail(label: string, res: ApiResponse, route?: string): void {
    this.failures += 1;
    const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    const noRoute = res.status === 404 && errorCodeOf(res) === 'NOT_FOUND' && body.includes('No route');
    if (noRoute && route) this.missingRoutes.add(route);
    const hint = noRoute ? ' (route not built yet; skipping its other steps)' : '';
    console.log(`  ✗ ${label}: ${res.method} ${res.path} -> ${res.status}${hint} ${body.length > 600 ? `${body.slice(0, 600)}…` : body}`);
  }

  /** A failure that is not one HTTP answer (a wait that timed out, a state that went wrong). */
  problem(label: string, why: string): void {
    this.failures += 1;
    console.log(`  ✗ ${label}: ${why}`);
  }
}

/** A deterministic idempotency key for a write that must not happen twice (XP, redemptions). */
export function onceKey(kind: string, payload: unknown): string {
  return `seed:${kind}:${createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 16)}`;
}

export async function listAll<T>(path: string, token: string): Promise<{ res: ApiResponse; items?: T[] }> {
  const res = await apiCall('GET', `${path}?limit=100`, { token });
  return { res, items: dataOf<Page<T>>(res)?.items };
}
