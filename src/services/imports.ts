import type { ImportJob, ImportKind } from '../db/schema';
import { definitionsByKeysQuery } from '../data/attributes';
import { importErrorsQuery, importJobByFileQuery, importJobByIdQuery, importJobPageQueries, insertImportJobStatement } from '../data/imports';
import { namedBatch } from '../data/named-batch';
import { ATTRIBUTE_COLUMN_PREFIX, IMPORT_CHUNK_ROWS, JOB_ERRORS_SHOWN } from '../domain/imports';
import type { OperationMessage } from '../env';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { ImportJobView } from '../schemas/import';
import { toImportJobView } from '../views/import-job';
import type { ServiceContext } from './context';
import { readUpload } from './import-upload';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

export type CreateImportInput = { kind: ImportKind; body: ReadableStream<Uint8Array>; accountId: string };
type Operations = Queue<OperationMessage>;

/** Messages per `sendBatch` (the Queues limit). */
const SEND_BATCH = 100;

/**
 * Stores the uploaded CSV in R2 and makes it a job (CONTRACT.md, Imports): the header is checked
 * while the file streams in (422), so a job is only ever made of a file whose rows can be read.
 * The same file (SHA-256) and kind again answers the first job (`created: false`), also when both
 * are sent at once: the job's unique index decides, and the second upload's copy is deleted.
 * Then one message per chunk goes to the operations queue.
 */
export async function createImport(ctx: ServiceContext, input: CreateImportInput, files: R2Bucket, queue: Operations): Promise<{ job: ImportJobView; created: boolean }> {
  const { db, tenantId } = ctx;
  const key = `imports/${tenantId}/${newId('upl')}.csv`;
  const upload = await readUpload(input.kind, input.body, files, key);
  try {
    await assertAttributesDefined(ctx, upload.attributeKeys);
    const job = {
      id: newId('imp'),
      tenantId,
      kind: input.kind,
      fileSha256: upload.sha256,
      fileKey: key,
      fileBytes: upload.bytes,
      columns: upload.columns,
      chunkOffsets: upload.offsets,
      chunkRows: IMPORT_CHUNK_ROWS,
      chunksTotal: upload.offsets.length - 1,
      rowsTotal: upload.rows,
      createdBy: input.accountId,
      createdAt: isoNow(ctx.now()),
    };
    const { inserted, existing } = await namedBatch(db, {
      inserted: insertImportJobStatement(db, job),
      existing: importJobByFileQuery(db, tenantId, input.kind, upload.sha256),
    });
    const [created] = inserted;
    if (!created) {
      await files.delete(key);
      const [first] = existing;
      if (!first) throw new Error('import job neither inserted nor found');
      return { job: await jobView(ctx, first), created: false };
    }
    // The job and its file exist from here on: chunks not sent now are sent by the hourly resume.
    await sendChunks(queue, ctx.shard.name, created).catch((error: unknown) => log('warn', 'import chunks not sent; the hourly job sends them', { request_id: ctx.requestId, import_id: created.id, tenant_id: ctx.tenantId, reason: reasonOf(error) }));
    return { job: toImportJobView(created, []), created: true };
  } catch (error) {
    await files.delete(key);
    throw error;
  }
}

/** A customers file's `attr.<key>` columns must name the tenant's attributes (422 at the column). */
async function assertAttributesDefined({ db, tenantId }: ServiceContext, keys: readonly string[]) {
  if (keys.length === 0) return;
  const defined = new Set((await definitionsByKeysQuery(db, tenantId, keys)).map((definition) => definition.key));
  const errors = keys
    .filter((key) => !defined.has(key))
    .map((key) => ({ path: `header.${ATTRIBUTE_COLUMN_PREFIX}${key}`, message: `Attribute "${key}" is not defined` }));
  if (errors.length > 0) throw new ApiError('VALIDATION_FAILED', `The header row is not valid: ${errors[0]!.message}`, { errors });
}

/** One message per chunk (all, or those given). */
export async function sendChunks(queue: Operations, shard: string, job: Pick<ImportJob, 'id' | 'tenantId' | 'chunksTotal'>, chunks?: readonly number[]) {
  const all = chunks ?? Array.from({ length: job.chunksTotal }, (_, chunk) => chunk);
  for (let start = 0; start < all.length; start += SEND_BATCH) {
    const messages = all.slice(start, start + SEND_BATCH).map((chunk) => ({ body: { kind: 'import_chunk', tenantId: job.tenantId, importId: job.id, chunk, shard } satisfies OperationMessage }));
    await queue.sendBatch(messages);
  }
}

async function jobView({ db, tenantId }: ServiceContext, job: ImportJob): Promise<ImportJobView> {
  return toImportJobView(job, await importErrorsQuery(db, tenantId, job.id, JOB_ERRORS_SHOWN));
}

export async function getImport(ctx: ServiceContext, id: string): Promise<ImportJobView> {
  const { db, tenantId } = ctx;
  const { job, errors } = await namedBatch(db, { job: importJobByIdQuery(db, tenantId, id), errors: importErrorsQuery(db, tenantId, id, JOB_ERRORS_SHOWN) });
  const [found] = job;
  if (!found) throw ApiError.notFound('Import');
  return toImportJobView(found, errors);
}

/** A page of the tenant's imports, newest first, each with its first row errors. */
export async function listImports(ctx: ServiceContext, query: PageParams): Promise<Page<ImportJobView>> {
  const { db, tenantId } = ctx;
  const [rows, [total]] = await db.batch(importJobPageQueries(db, tenantId, query));
  const [first, ...rest] = rows.map((job) => importErrorsQuery(db, tenantId, job.id, JOB_ERRORS_SHOWN));
  const errors = first ? await db.batch([first, ...rest]) : [];
  const items = rows.map((job, index) => toImportJobView(job, errors[index] ?? []));
  return pageOf(items, total?.value ?? 0, query);
}

/** The job's error file (text/csv): 404 when the job is not the tenant's or has no such file (yet, or any more). */
export async function importErrorFile(ctx: ServiceContext, id: string, files: R2Bucket): Promise<ReadableStream> {
  const [job] = await importJobByIdQuery(ctx.db, ctx.tenantId, id);
  if (!job) throw ApiError.notFound('Import');
  const object = job.errorFileKey ? await files.get(job.errorFileKey) : null;
  if (!object) throw ApiError.notFound('Error file');
  return object.body;
}
