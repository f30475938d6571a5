import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

export const exportKinds = ['customers', 'internal_transactions', 'cohort_members'] as const;
/** `expired`: completed, and its file deleted by the retention job (docs/OPERATIONS.md, "Exports"). */
export const exportStatuses = ['queued', 'running', 'completed', 'failed', 'expired'] as const;

/**
 * A bulk export: a CSV written into R2 by the operations queue's consumer
 * (src/services/export-jobs.ts). Each delivery of its message is a run with its own `run_id` and
 * its own object key; only the run that still holds `run_id` when it finishes completes the job,
 * so however often the message is redelivered, the job names one complete file.
 */
export const exportJobs = sqliteTable(
  'export_jobs',
  {
    id: id(),
    tenantId: tenantId(),
    kind: text('kind', { enum: exportKinds }).notNull(),
    cohortId: text('cohort_id'),
    /** The period of `created_at` the rows are taken from: [from, to], either open. */
    periodFrom: text('period_from'),
    periodTo: text('period_to'),
    status: text('status', { enum: exportStatuses }).notNull().default('queued'),
    rows: integer('rows').notNull().default(0),
    /** The run writing the file now (a redelivery takes over), and its R2 key once completed. */
    runId: text('run_id'),
    fileKey: text('file_key'),
    /** Why a job failed (a cohort deleted meanwhile); never an internal error's text. */
    failureReason: text('failure_reason'),
    createdBy: text('created_by').notNull(),
    /** When the current run began reading: an erasure at or after it may not be in its file. */
    startedAt: text('started_at'),
    completedAt: text('completed_at'),
    /** When the retention job deleted the file. */
    expiredAt: text('expired_at'),
    ...timestamps,
  },
  (t) => [index('export_jobs_tenant_created').on(t.tenantId, t.createdAt), index('export_jobs_completed').on(t.status, t.completedAt)],
);

export type ExportJob = typeof exportJobs.$inferSelect;
export type ExportKind = (typeof exportKinds)[number];
export type ExportStatus = (typeof exportStatuses)[number];
