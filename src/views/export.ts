import type { ExportJob } from '../db/schema';
import { EXPORT_RETENTION_MS } from '../domain/exports';
import type { ExportJobView } from '../schemas/export';

/** A freshly signed link to the job's file (completed jobs only). */
export type IssuedLink = { url: string; expiresAt: Date };

export function toExportJobView(job: ExportJob, link: IssuedLink | undefined): ExportJobView {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    rows: job.rows,
    cohort_id: job.cohortId,
    from: job.periodFrom,
    to: job.periodTo,
    download_url: link?.url ?? null,
    expires_at: link ? link.expiresAt.toISOString() : null,
    failure_reason: job.failureReason,
    created_by: job.createdBy,
    created_at: job.createdAt,
    completed_at: job.completedAt,
    file_expires_at: job.status === 'completed' && job.completedAt ? new Date(Date.parse(job.completedAt) + EXPORT_RETENTION_MS).toISOString() : null,
  };
}
