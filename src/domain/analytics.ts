import type { CustomerStatus } from '../db/schema';
import { ApiError } from '../lib/errors';

/** Customers counted as active fans in top-countries (CONTRACT.md, Analytics). */
export const ACTIVE_FAN_STATUSES = ['active', 'reinstated'] as const satisfies readonly CustomerStatus[];

/**
 * `count / total * 100` rounded to 2 decimals, half up, computed on integers so that halves are
 * exact (e.g. 1 of 32 is 3.13, not 3.12). An empty total has no shares: 0.
 */
export function sharePercent(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count * 10_000) / total) / 100;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export type Period = { from?: string; to?: string };

/**
 * The inclusive bounds, as stored ISO timestamps, of an analytics period. A date alone means that
 * whole UTC day (`to=2026-01-31` includes the 31st); a date-time is exact. `from` after `to` is a 422.
 */
export function periodBounds(from?: string, to?: string): Period {
  const lower = from === undefined ? undefined : DATE_ONLY.test(from) ? `${from}T00:00:00.000Z` : new Date(from).toISOString();
  const upper = to === undefined ? undefined : DATE_ONLY.test(to) ? `${to}T23:59:59.999Z` : new Date(to).toISOString();
  if (lower !== undefined && upper !== undefined && lower > upper) {
    throw new ApiError('VALIDATION_FAILED', 'The request is not valid', { errors: [{ path: 'to', message: 'Must not be before from' }] });
  }
  return { from: lower, to: upper };
}
