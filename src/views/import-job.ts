import type { ImportJob } from '../db/schema';
import type { ImportJobView, ImportRowErrorView } from '../schemas/import';

/** The path of a job's error file, relative to the API's base (as the other URLs it answers). */
export function importErrorsPath(job: Pick<ImportJob, 'id' | 'tenantId'>): string {
  return `/api/v1/tenant/${job.tenantId}/imports/${job.id}/errors`;
}

export function toImportJobView(job: ImportJob, errors: readonly ImportRowErrorView[]): ImportJobView {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    file_sha256: job.fileSha256,
    rows_total: job.rowsTotal,
    rows_ok: job.rowsOk,
    rows_failed: job.rowsFailed,
    errors: errors.map(({ row, message }) => ({ row, message })),
    errors_url: job.errorFileKey ? importErrorsPath(job) : null,
    created_by: job.createdBy,
    created_at: job.createdAt,
    completed_at: job.completedAt,
  };
}
