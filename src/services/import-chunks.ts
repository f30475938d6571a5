import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ImportJob } from '../db/schema';
import { violatesUnique } from '../data/db-errors';
import { isRulesChanged } from '../data/earning-evaluation';
import { fileRangeText, fileWriter } from '../data/files';
import {
  chunkAppliedQuery,
  chunkMarkerStatement,
  chunkProgressStatement,
  failImportJobStatement,
  importErrorsQuery,
  importJobByIdQuery,
  isChunkApplied,
  rowErrorsStatement,
  setErrorFileStatement,
} from '../data/imports';
import { namedBatch } from '../data/named-batch';
import { rowNumber } from '../domain/imports';
import type { OperationMessage } from '../env';
import { isoNow } from '../lib/time';
import { forTenant, type ServiceContext, type ShardContext } from './context';
import { planBalanceRows } from './import-balances';
import { planCustomerRows } from './import-customers';
import type { ChunkPlan, ImportRow } from './import-rows';
import { CSV_OPTIONS } from './import-upload';
import { withProgram } from './program-version';
import { log } from '../lib/log';

export type ChunkMessage = Extract<OperationMessage, { kind: 'import_chunk' }>;
/** `walletMnemonic`: the custodial wallets' seed (configuration), for new customers. */
export type ChunkOptions = { files: R2Bucket; walletMnemonic: string };

/** Plans made again after another writer changed what a plan read (a customer created meanwhile). */
const MAX_REPLANS = 3;

/** Error rows per page read while writing the error file. */
const ERROR_PAGE = 1_000;

/**
 * Applies one chunk of an import's rows, exactly once whatever the queue does: the rows, their
 * errors, the job's counts and the chunk's marker are one D1 batch (one transaction), led by the
 * marker, so a chunk applied before (a redelivery, a duplicate running at the same time) rolls its
 * batch back whole and writes nothing, and a consumer that dies before its batch commits leaves
 * nothing behind for the retry to trip over. The chunk that completes the job writes its error
 * file; a redelivery of an applied chunk writes it too if it is still missing.
 */
export async function applyImportChunk(run: ShardContext, message: ChunkMessage, options: ChunkOptions): Promise<void> {
  const ctx = forTenant(run, message.tenantId);
  const { db, tenantId } = ctx;
  const { job, applied } = await namedBatch(db, {
    job: importJobByIdQuery(db, tenantId, message.importId),
    applied: chunkAppliedQuery(db, tenantId, message.importId, message.chunk),
  });
  const [found] = job;
  if (!found) {
    log('warn', 'import chunk of no known import dropped', { import_id: message.importId, tenant_id: message.tenantId });
    return;
  }
  const after = applied.length > 0 || found.status === 'failed' ? found : await applyChunk(ctx, found, message.chunk, options);
  await writeErrorFile(ctx, after, options.files);
}

/** The job as the chunk's batch left it (or as it was, when the chunk had been applied meanwhile). */
async function applyChunk(ctx: ServiceContext, job: ImportJob, chunk: number, options: ChunkOptions): Promise<ImportJob> {
  const rows = await chunkRows(job, chunk, options.files);
  if (!rows) {
    await failImportJobStatement(ctx.db, ctx.tenantId, job.id, isoNow(ctx.now()));
    log('error', 'import file missing; import failed', { import_id: job.id, tenant_id: ctx.tenantId });
    return { ...job, status: 'failed' };
  }
  for (let replans = 0; ; replans++) {
    try {
      if (job.kind === 'customers') return await writeChunk(ctx, job, chunk, await planCustomerRows(ctx, job, rows, options.walletMnemonic));
      return await withProgram(ctx, async (rules) => writeChunk(ctx, job, chunk, await planBalanceRows(ctx, job, rows, rules)));
    } catch (error) {
      if (isChunkApplied(error)) return (await importJobByIdQuery(ctx.db, ctx.tenantId, job.id))[0] ?? job;
      // A customer created (or a rule changed) between the plan's reads and its batch: plan again.
      const stale = violatesUnique(error, 'customers.') || violatesUnique(error, 'internal_wallets.') || isRulesChanged(error);
      if (!stale || replans >= MAX_REPLANS) throw error;
    }
  }
}

async function writeChunk(ctx: ServiceContext, job: ImportJob, chunk: number, plan: ChunkPlan): Promise<ImportJob> {
  const { db, tenantId } = ctx;
  const now = isoNow(ctx.now());
  const { progress, readBack } = await namedBatch(db, {
    marker: chunkMarkerStatement(db, { tenantId, importId: job.id, chunk, now }),
    guard: plan.guard,
    rows: plan.statements,
    errors: rowErrorsStatement(db, tenantId, job.id, plan.errors),
    progress: chunkProgressStatement(db, { tenantId, importId: job.id, ok: plan.ok, failed: plan.errors.length, now }),
    readBack: plan.readBack,
  });
  await plan.after?.(readBack);
  const [updated] = progress;
  if (!updated) throw new Error('import job vanished while applying a chunk');
  return updated;
}

/** The chunk's rows, read from its byte range of the file; undefined when the file is gone. */
async function chunkRows(job: ImportJob, chunk: number, files: R2Bucket): Promise<ImportRow[] | undefined> {
  const start = job.chunkOffsets[chunk];
  const end = job.chunkOffsets[chunk + 1];
  if (start === undefined || end === undefined) throw new Error(`import ${job.id} has no chunk ${chunk}`);
  const text = job.fileKey ? await fileRangeText(files, job.fileKey, start, end) : undefined;
  if (text === undefined) return undefined;
  const records: string[][] = parse(text, CSV_OPTIONS);
  return records.map((fields, index) => ({ row: rowNumber(chunk, job.chunkRows, index), fields }));
}

/**
 * Every row error of a completed job as CSV (`row,message`) in R2, read page by page and written
 * as it goes. Writing it twice (two deliveries finishing at once) writes the same bytes.
 */
async function writeErrorFile(ctx: ServiceContext, job: ImportJob, files: R2Bucket): Promise<void> {
  if (job.status !== 'completed' || job.rowsFailed === 0 || job.errorFileKey) return;
  const { db, tenantId } = ctx;
  const key = `imports/${tenantId}/${job.id}-errors.csv`;
  const file = fileWriter(files, key, 'text/csv');
  const encoder = new TextEncoder();
  await file.write(encoder.encode(stringify([['row', 'message']])));
  for (let afterRow = 0; ; ) {
    const page = await importErrorsQuery(db, tenantId, job.id, ERROR_PAGE, afterRow);
    if (page.length === 0) break;
    await file.write(encoder.encode(stringify(page.map(({ row, message }) => [row, message]))));
    afterRow = page[page.length - 1]!.row;
  }
  await file.close();
  await setErrorFileStatement(db, tenantId, job.id, key);
}
