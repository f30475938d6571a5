import {
  appliedChunksQuery,
  failImportJobStatement,
  filesDeletedStatement,
  jobsWithExpiredFilesQuery,
  stalledImportJobsQuery,
  resumedImportJobStatement,
  trimImportErrorsStatement,
} from '../data/imports';
import { JOB_ERRORS_SHOWN } from '../domain/imports';
import type { OperationMessage } from '../env';
import { isoNow } from '../lib/time';
import type { ShardContext } from './context';
import { sendChunks } from './imports';
import { log } from '../lib/log';

/** Days an import's files (the upload and the error file) stay in R2 after it finished (docs/OPERATIONS.md). */
export const IMPORT_FILE_RETENTION_DAYS = 30;

/** A job with no progress for this long has lost a message (a send that failed, a chunk dead-lettered). */
const STALLED_MS = 60 * 60 * 1000;

/**
 * Resends without progress before a job is failed: a chunk that fails on every delivery (the queue's
 * retries, then the dead-letter queue) would otherwise be sent again every hour for ever.
 */
export const MAX_IMPORT_RESUMES = 3;

/** Jobs handled per hourly run (the next run takes the rest). */
const PER_RUN = 100;

/**
 * Hourly: deletes the files of imports finished more than IMPORT_FILE_RETENTION_DAYS ago (the
 * upload holds the people it imported; the error file their rows' problems). The job stays with its
 * counts and its first row errors; `errors_url` becomes null.
 */
export async function purgeImportFiles({ db, now }: ShardContext, files: R2Bucket): Promise<number> {
  const before = isoNow(new Date(now().getTime() - IMPORT_FILE_RETENTION_DAYS * 86_400_000));
  const jobs = await jobsWithExpiredFilesQuery(db, before, PER_RUN);
  for (const job of jobs) {
    const keys = [job.fileKey, job.errorFileKey].filter((key): key is string => key !== null);
    if (keys.length > 0) await files.delete(keys);
    await db.batch([filesDeletedStatement(db, job.tenantId, job.id, isoNow(now())), trimImportErrorsStatement(db, job.tenantId, job.id, JOB_ERRORS_SHOWN)]);
  }
  return jobs.length;
}

/**
 * Hourly: sends again the chunks not yet applied of imports that made no progress for an hour. A
 * chunk applied meanwhile is applied once all the same (its marker), so sending too much is safe.
 * A job sent again MAX_IMPORT_RESUMES times without progress is failed: what was applied stays.
 */
export async function resumeStalledImports({ db, now, shard }: ShardContext, queue: Queue<OperationMessage>): Promise<number> {
  const jobs = await stalledImportJobsQuery(db, isoNow(new Date(now().getTime() - STALLED_MS)), PER_RUN);
  for (const job of jobs) {
    if (job.resumes >= MAX_IMPORT_RESUMES) {
      await failImportJobStatement(db, job.tenantId, job.id, isoNow(now()));
      log('error', 'import failed: its chunks were sent again without progress', { import_id: job.id, tenant_id: job.tenantId, resumes: job.resumes });
      continue;
    }
    const applied = new Set((await appliedChunksQuery(db, job.tenantId, job.id)).map((row) => row.chunk));
    const missing = Array.from({ length: job.chunksTotal }, (_, chunk) => chunk).filter((chunk) => !applied.has(chunk));
    await sendChunks(queue, shard.name, job, missing);
    await resumedImportJobStatement(db, job.tenantId, job.id, isoNow(now()));
  }
  return jobs.length;
}
