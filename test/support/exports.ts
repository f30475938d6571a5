import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from 'cloudflare:test';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import worker from '../../src/index';
import type { OperationMessage } from '../../src/env';
import { exportJobSchema, type ExportJobView } from '../../src/schemas/export';
import { runContext } from '../../src/services/context';
import { runExport, type ExportRunOptions } from '../../src/services/export-jobs';
import { expectOk } from './http';
import { shardsHolding } from './shards';
import { portalCall, shardOf, shardRun, type TestMember } from './world';

/** Helpers of test/operations/exports*: request an export, run its message, download and parse the file. */

export const exportsPath = (tenantId: string, rest = '') => `/api/v1/tenant/${tenantId}/exports${rest}`;

export async function requestExport(member: TestMember, tenantId: string, body: Record<string, unknown>): Promise<ExportJobView> {
  const job = expectOk(await portalCall(member, 'POST', exportsPath(tenantId), body), 202, exportJobSchema);
  expect(job).toMatchObject({ status: 'queued', rows: 0, download_url: null, expires_at: null });
  return job;
}

export async function getExport(member: TestMember, tenantId: string, id: string): Promise<ExportJobView> {
  return expectOk(await portalCall(member, 'GET', exportsPath(tenantId, `/${id}`), undefined), 200, exportJobSchema);
}

let messageSeq = 0;

/** Hands the export ids to the Worker's operations consumer, as the Queues runtime would. */
export async function deliverExports(exportIds: readonly string[]) {
  const shardOfExport = await shardsHolding('export_jobs', exportIds);
  const messages = exportIds.map((exportId) => ({ id: `opmsg-${(messageSeq += 1)}`, timestamp: new Date(), attempts: 1, body: { kind: 'export', exportId, shard: shardOfExport(exportId) } satisfies OperationMessage }));
  const batch = createMessageBatch<OperationMessage>('loyalty-operations', messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

/** Runs one export's message through the service with a smaller page or a larger part than in production. */
export function runExportWith(tenantId: string, exportId: string, options: ExportRunOptions) {
  return runExport(shardRun(tenantId), env, { kind: 'export', exportId, shard: shardOf(tenantId) }, options);
}

/** Runs the export, then reads the job: completed, with its link. */
export async function completedExport(member: TestMember, tenantId: string, body: Record<string, unknown>, options?: ExportRunOptions): Promise<ExportJobView> {
  const job = await requestExport(member, tenantId, body);
  if (options) await runExportWith(tenantId, job.id, options);
  else expect((await deliverExports([job.id])).explicitAcks).toHaveLength(1);
  const done = await getExport(member, tenantId, job.id);
  expect(done.status, JSON.stringify(done)).toBe('completed');
  return done;
}

/** Downloads a link through the Worker (no bearer token) and parses the CSV: header and records. */
export async function downloadCsv(url: string): Promise<{ header: string[]; records: Record<string, string>[]; response: Response }> {
  const response = await SELF.fetch(url);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const rows: string[][] = parse(text);
  const [header, ...data] = rows;
  return { header: header!, records: data.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!]))), response };
}

/** The objects the bucket holds under an export's prefix (each run writes its own key). */
export async function exportObjects(tenantId: string, exportId: string): Promise<string[]> {
  const listed = await env.FILES.list({ prefix: `exports/${tenantId}/${exportId}/` });
  return listed.objects.map((object) => object.key);
}

/** A link's path and query, for `call` (which prefixes the test origin). */
export const pathOf = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};
