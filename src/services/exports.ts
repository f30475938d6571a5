import { signDownloadLink, verifyDownloadLink, type DownloadLink } from '../auth/download-links';
import { cohortByIdQuery } from '../data/cohorts';
import { exportsPastRetention, failAbandonedExports, findExportJob, findExportJobById, findExportJobPage, insertExportJob, markExportsExpired } from '../data/export-jobs';
import { createDatabase } from '../db/client';
import type { ExportJob } from '../db/schema';
import { DOWNLOAD_LINK_TTL_MS, EXPORT_ABANDONED_MS, EXPORT_RETENTION_MS, exportRequestOf, supersededByErasure } from '../domain/exports';
import type { OperationMessage } from '../env';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CreateExportBody, ExportJobView } from '../schemas/export';
import { toExportJobView, type IssuedLink } from '../views/export';
import type { RunContext, ServiceContext, ShardContext } from './context';
import { exportFileName } from './export-jobs';

/** What issuing a download link needs: the key its signing key derives from, and the file route's URL up to the export id (`.../api/v1/files/exports/`). */
export type LinkSettings = { encryptionKey: string; filesUrl: string };

/** The job as shown: a file begun before the tenant's latest erasure reads `expired` (the hourly job deletes it). */
function shownJob(job: ExportJob, lastErasureAt: string | null): ExportJob {
  return supersededByErasure(job, lastErasureAt) ? { ...job, status: 'expired' } : job;
}

/** A fresh link for a completed job (valid an hour from now); none for any other status. */
async function linkFor(ctx: ServiceContext, job: ExportJob, settings: LinkSettings): Promise<IssuedLink | undefined> {
  if (job.status !== 'completed') return undefined;
  const expiresAt = new Date(Math.floor((ctx.now().getTime() + DOWNLOAD_LINK_TTL_MS) / 1000) * 1000);
  const link = await signDownloadLink(settings.encryptionKey, job.id, expiresAt);
  const url = new URL(`${settings.filesUrl}${link.exportId}`);
  url.searchParams.set('expires', String(link.expires));
  url.searchParams.set('signature', link.signature);
  return { url: url.href, expiresAt };
}

/**
 * Records an export and hands it to the operations queue (the consumer writes the file:
 * services/export-jobs.ts). 422 for a request the kind does not take, 404 for an unknown cohort.
 */
export async function requestExport(
  ctx: ServiceContext,
  input: CreateExportBody,
  deps: { createdBy: string; queue: Queue<OperationMessage> },
): Promise<ExportJobView> {
  const request = exportRequestOf(input);
  if (request.cohortId !== null) {
    const [cohort] = await cohortByIdQuery(ctx.db, ctx.tenantId, request.cohortId);
    if (!cohort) throw new ApiError('NOT_FOUND', 'Cohort not found', { path: 'cohort_id' });
  }
  const job = await insertExportJob(
    ctx.db,
    { id: newId('exp'), tenantId: ctx.tenantId, kind: request.kind, cohortId: request.cohortId, periodFrom: request.from, periodTo: request.to, createdBy: deps.createdBy },
    isoNow(ctx.now()),
  );
  await deps.queue.send({ kind: 'export', exportId: job.id, shard: ctx.shard.name });
  return toExportJobView(job, undefined);
}

export async function listExports(ctx: ServiceContext, params: PageParams, settings: LinkSettings): Promise<Page<ExportJobView>> {
  const { rows, total, lastErasureAt } = await findExportJobPage(ctx.db, ctx.tenantId, params);
  const items = await Promise.all(
    rows.map(async (row) => {
      const job = shownJob(row, lastErasureAt);
      return toExportJobView(job, await linkFor(ctx, job, settings));
    }),
  );
  return pageOf(items, total, params);
}

/** The job; a completed one with a link issued now (each read a fresh one, valid an hour). */
export async function getExport(ctx: ServiceContext, id: string, settings: LinkSettings): Promise<ExportJobView> {
  const found = await findExportJob(ctx.db, ctx.tenantId, id);
  if (!found.job) throw ApiError.notFound('Export');
  const job = shownJob(found.job, found.lastErasureAt);
  return toExportJobView(job, await linkFor(ctx, job, settings));
}

export type ExportFile = { body: ReadableStream; size: number; fileName: string };

/**
 * The file a download link names, as R2's stream (never read into memory here). Anything but an
 * authentic, unexpired link to a completed job's file is a 404: a forged or altered link, one of
 * a job since expired, one signed by another deployment.
 */
export async function openExportFile(ctx: RunContext, link: DownloadLink, encryptionKey: string, bucket: R2Bucket): Promise<ExportFile> {
  const check = await verifyDownloadLink(encryptionKey, link, ctx.now());
  if (!check.ok) throw new ApiError('NOT_FOUND', check.reason === 'expired' ? 'This download link has expired: read the export again for a new one' : 'File not found');
  // The link names the export, not its shard: every shard is asked at once (one round trip's wait).
  const found = await Promise.all(ctx.shards.map((shard) => findExportJobById(createDatabase(shard.d1), link.exportId)));
  const { job, lastErasureAt } = found.find((candidate) => candidate.job !== undefined) ?? { job: undefined, lastErasureAt: undefined };
  if (!job || job.status !== 'completed' || job.fileKey === null || supersededByErasure(job, lastErasureAt)) throw new ApiError('NOT_FOUND', 'File not found');
  const object = await bucket.get(job.fileKey);
  if (!object) throw new ApiError('NOT_FOUND', 'File not found');
  return { body: object.body, size: object.size, fileName: exportFileName(job) };
}

/** Jobs per round of the retention job, and rounds per run (the rest waits an hour). */
const RETENTION_BATCH = 100;
const RETENTION_ROUNDS = 20;

/**
 * Deletes the files of exports completed more than the retention period ago, and of those begun
 * before an erasure of their tenant; their jobs then read `expired`, without a link. Hourly
 * (src/jobs/index.ts). Returns how many files went.
 */
export async function expireExportFiles(ctx: ShardContext, bucket: R2Bucket): Promise<number> {
  const completedBefore = isoNow(new Date(ctx.now().getTime() - EXPORT_RETENTION_MS));
  let expired = 0;
  for (let round = 0; round < RETENTION_ROUNDS; round += 1) {
    const due = await exportsPastRetention(ctx.db, completedBefore, RETENTION_BATCH);
    const keys = due.flatMap((job) => (job.fileKey === null ? [] : [job.fileKey]));
    if (keys.length > 0) await bucket.delete(keys);
    await markExportsExpired(ctx.db, due.map((job) => job.id), isoNow(ctx.now()));
    expired += due.length;
    if (due.length < RETENTION_BATCH) break;
  }
  return expired;
}

/** Fails the jobs whose message is gone (EXPORT_ABANDONED_MS without a run); hourly. Returns how many. */
export function failAbandonedExportJobs(ctx: ShardContext): Promise<number> {
  const updatedBefore = isoNow(new Date(ctx.now().getTime() - EXPORT_ABANDONED_MS));
  return failAbandonedExports(ctx.db, updatedBefore, 'The export did not finish: ask for it again', isoNow(ctx.now()));
}
