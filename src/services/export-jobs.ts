import { stringify } from 'csv-stringify/sync';
import { cohortByIdQuery } from '../data/cohorts';
import { allDefinitionsQuery } from '../data/attributes';
import { tierLadderQuery, tierOnLadder } from '../data/customer-tiers';
import { claimExportRun, completeExportRun, failExportRun } from '../data/export-jobs';
import { cohortMemberExportPage, customerExportPage, transactionExportPage, type ExportCursor, type ExportPeriod } from '../data/export-rows';
import type { ExportJob } from '../db/schema';
import type { Bindings, OperationMessage } from '../env';
import { newId } from '../lib/ids';
import { MIN_PART_BYTES, PartWriter } from '../lib/multipart-writer';
import { isoNow } from '../lib/time';
import {
  cohortMemberExportColumns,
  cohortMemberExportRecords,
  customerExportColumns,
  customerExportRecords,
  transactionExportColumns,
  transactionExportRecords,
  type ExportRecord,
} from '../views/export-rows';
import { forTenant, type ShardContext, type ServiceContext } from './context';
import { log } from '../lib/log';

/** Rows per D1 read: a page's text (a few hundred KB at most) is what an export holds besides the part being filled. */
export const EXPORT_PAGE_SIZE = 1000;

/** Tests and the bench lower the page (to cross pages with a few rows) or raise the part; R2 sets the part's minimum. */
export type ExportRunOptions = { pageSize?: number; partBytes?: number };

/** What a run did (undefined: nothing, the job was finished): `completed` false when a later delivery took the job over. */
export type ExportRunResult = { completed: boolean; rows: number; bytes: number; parts: number; peakHeldBytes: number } | undefined;

const encoder = new TextEncoder();

/** One page read: its records and where the next page starts (undefined: this was the last). */
type PageRead = { records: ExportRecord[]; next: ExportCursor | undefined };
type PageReader = (cursor: ExportCursor | undefined, limit: number) => Promise<PageRead>;

/** The R2 key of one run's file: a run never writes over another's, so only the completing run's file is the job's. */
export function exportFileKey(job: Pick<ExportJob, 'tenantId' | 'id'>, runId: string): string {
  return `exports/${job.tenantId}/${job.id}/${runId}.csv`;
}

export function exportFileName(job: Pick<ExportJob, 'kind' | 'id'>): string {
  return `${job.kind}-${job.id}.csv`;
}

const lastOf = <T>(rows: T[], limit: number, cursorOf: (row: T) => ExportCursor) => (rows.length < limit || rows.length === 0 ? undefined : cursorOf(rows[rows.length - 1]!));

/** The header and the page reader of the job's kind; undefined when its cohort no longer exists. */
async function exportPlan(ctx: ServiceContext, job: ExportJob): Promise<{ columns: string[]; read: PageReader } | undefined> {
  const { db, tenantId } = ctx;
  const period: ExportPeriod = { from: job.periodFrom, to: job.periodTo };
  if (job.kind === 'customers') {
    const [definitions, ladder] = await db.batch([allDefinitionsQuery(db, tenantId), tierLadderQuery(db, tenantId)]);
    return {
      columns: customerExportColumns(definitions),
      read: async (cursor, limit) => {
        const page = await customerExportPage(db, tenantId, period, cursor, limit);
        const records = customerExportRecords(page, definitions, (customer) => tierOnLadder(ladder, customer));
        return { records, next: lastOf(page.rows, limit, (row) => ({ createdAt: row.createdAt, id: row.id })) };
      },
    };
  }
  if (job.kind === 'internal_transactions') {
    return {
      columns: transactionExportColumns,
      read: async (cursor, limit) => {
        const rows = await transactionExportPage(db, tenantId, period, cursor, limit);
        return { records: transactionExportRecords(rows), next: lastOf(rows, limit, (row) => ({ createdAt: row.transaction.createdAt, id: row.transaction.id })) };
      },
    };
  }
  const cohortId = job.cohortId!;
  const [cohort] = await cohortByIdQuery(db, tenantId, cohortId);
  if (!cohort) return undefined;
  return {
    columns: cohortMemberExportColumns,
    read: async (cursor, limit) => {
      const rows = await cohortMemberExportPage(db, tenantId, cohortId, cursor, limit);
      return { records: cohortMemberExportRecords(rows), next: lastOf(rows, limit, (row) => ({ createdAt: row.createdAt, id: row.id })) };
    },
  };
}

/** Reads page after page into the writer, each page stringified on its own (csv-stringify quotes commas, quotes and newlines). */
async function writePages(writer: PartWriter, columns: string[], read: PageReader, pageSize: number): Promise<number> {
  await writer.write(encoder.encode(stringify([columns])));
  let rows = 0;
  let cursor: ExportCursor | undefined;
  do {
    const page = await read(cursor, pageSize);
    if (page.records.length > 0) await writer.write(encoder.encode(stringify(page.records)));
    rows += page.records.length;
    cursor = page.next;
    // Between pages, let the isolate's other events in: a chain of D1 reads alone kept every other
    // request of the isolate waiting until the whole export ended (seen under wrangler dev: 5 s for
    // /info during an export; the bench's `exports` measurement).
    await new Promise((resolve) => setTimeout(resolve, 0));
  } while (cursor);
  return rows;
}

/**
 * Writes one export's CSV into R2, for the operations queue's `export` message. Each delivery is a
 * run: it takes the job over (a job already completed, failed or expired is left alone: a late
 * redelivery does nothing), writes the whole file afresh under its own key in a multipart upload,
 * and completes the job only if no later delivery took it over meanwhile; a run that lost deletes
 * its file. So redeliveries never make a second completed file, and never a row twice.
 */
export async function runExport(
  ctx: ShardContext,
  env: Pick<Bindings, 'FILES'>,
  message: Extract<OperationMessage, { kind: 'export' }>,
  options: ExportRunOptions = {},
): Promise<ExportRunResult> {
  const runId = newId('run');
  const job = await claimExportRun(ctx.db, message.exportId, runId, isoNow(ctx.now()));
  if (!job) return undefined;
  const plan = await exportPlan(forTenant(ctx, job.tenantId), job);
  if (!plan) {
    await failExportRun(ctx.db, job.id, runId, 'The cohort was deleted before the export ran', isoNow(ctx.now()));
    return undefined;
  }
  const key = exportFileKey(job, runId);
  const upload = await env.FILES.createMultipartUpload(key, {
    httpMetadata: { contentType: 'text/csv; charset=utf-8', contentDisposition: `attachment; filename="${exportFileName(job)}"` },
  });
  const writer = new PartWriter(upload, options.partBytes ?? MIN_PART_BYTES);
  let rows: number;
  try {
    rows = await writePages(writer, plan.columns, plan.read, options.pageSize ?? EXPORT_PAGE_SIZE);
    await writer.complete();
  } catch (error) {
    await writer.abort().catch(() => undefined);
    throw error;
  }
  const completed = await completeExportRun(ctx.db, job.id, runId, { fileKey: key, rows }, isoNow(ctx.now()));
  if (!completed) await env.FILES.delete(key);
  const result = { completed, rows, bytes: writer.written, parts: writer.partsSent, peakHeldBytes: writer.peakHeld };
  // What an operator (and `npm run bench -- --only exports`) reads of a run: its size and the most it held.
  log('info', 'export written', { export_id: job.id, tenant_id: job.tenantId, completed: result.completed, rows: result.rows, bytes: result.bytes, parts: result.parts, peak_held_bytes: result.peakHeldBytes });
  return result;
}
