import type { ExportKind } from '../db/schema';
import { ApiError } from '../lib/errors';

/** How long a download link works after it is issued (CONTRACT.md: 1 hour). */
export const DOWNLOAD_LINK_TTL_MS = 60 * 60 * 1000;
/** How long an export's file is kept after it completes; the hourly cron deletes it then. */
export const EXPORT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * A job no run has claimed or finished for this long has lost its message (the queue's retries
 * spent, or the dead-letter queue): the hourly job fails it so it never reads `running` forever.
 * A run lasts minutes (a Queues consumer at most 15), its retries minutes more.
 */
export const EXPORT_ABANDONED_MS = 2 * 60 * 60 * 1000;

export type ExportRequest = { kind: ExportKind; cohortId: string | null; from: string | null; to: string | null };

/**
 * The request's rules beyond its shape: a cohort for `cohort_members` (and only there), a period
 * for the kinds whose rows have a creation time of their own (a cohort's members are who matches
 * now), `from` not after `to`. Bounds are stored in the form `created_at` is (UTC, milliseconds),
 * so they compare as text.
 */
export function exportRequestOf(input: { kind: ExportKind; cohort_id?: string; from?: string; to?: string }): ExportRequest {
  if (input.kind === 'cohort_members' && input.cohort_id === undefined) throw new ApiError('VALIDATION_FAILED', 'A cohort_members export names its cohort', { path: 'cohort_id' });
  if (input.kind !== 'cohort_members' && input.cohort_id !== undefined) throw new ApiError('VALIDATION_FAILED', `A ${input.kind} export takes no cohort`, { path: 'cohort_id' });
  if (input.kind === 'cohort_members') {
    for (const field of ['from', 'to'] as const) {
      if (input[field] !== undefined) throw new ApiError('VALIDATION_FAILED', "A cohort_members export takes no period: it lists the cohort's members now", { path: field });
    }
  }
  const from = input.from === undefined ? null : new Date(input.from).toISOString();
  const to = input.to === undefined ? null : new Date(input.to).toISOString();
  if (from !== null && to !== null && from > to) throw new ApiError('VALIDATION_FAILED', 'from is after to', { path: 'from' });
  return { kind: input.kind, cohortId: input.cohort_id ?? null, from, to };
}

/**
 * Whether a completed export's file may show a person erased since: its run began reading at or
 * before the tenant's latest erasure. Such a file is never served again (it reads `expired`) and
 * the hourly job deletes it, so no export shows an erased person's old values.
 */
export function supersededByErasure(job: { status: string; startedAt: string | null }, lastErasureAt: string | null): boolean {
  return job.status === 'completed' && lastErasureAt !== null && (job.startedAt === null || job.startedAt <= lastErasureAt);
}
