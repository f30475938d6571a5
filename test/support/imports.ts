import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { importJobs, type ImportKind } from '../../src/db/schema';
import type { Bindings, OperationMessage } from '../../src/env';
import worker from '../../src/index';
import { importJobSchema, type ImportJobView } from '../../src/schemas/import';
import { BASE, expectOk, type JsonResponse } from './http';
import { db, portalCall, shardOf, type TestMember } from './world';

export const importsPath = (tenantId: string, rest = '') => `/api/v1/tenant/${tenantId}/imports${rest}`;

/** The upload request of a CSV body (for `race`, or sent by `uploadCsv`). */
export function uploadRequest(member: { token: string }, tenantId: string, kind: string, body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}${importsPath(tenantId, `?kind=${kind}`)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${member.token}`, 'content-type': 'text/csv', ...headers },
    body,
  });
}

/** Uploads a CSV through the whole Worker. */
export async function uploadCsv(member: { token: string }, tenantId: string, kind: string, body: BodyInit, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const response = await SELF.fetch(uploadRequest(member, tenantId, kind, body, headers));
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the assertion prints it
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Uploads and expects a new job (202). */
export async function createImportJob(member: TestMember, tenantId: string, kind: ImportKind, csv: string): Promise<ImportJobView> {
  return expectOk(await uploadCsv(member, tenantId, kind, csv), 202, importJobSchema);
}

let messageSeq = 0;

/** The chunk messages of a job (the test queue delivers nothing: tests hand them to the consumer). */
export async function chunkMessages(tenantId: string, importId: string): Promise<OperationMessage[]> {
  const [job] = await db(tenantId).select().from(importJobs).where(and(eq(importJobs.id, importId), eq(importJobs.tenantId, tenantId)));
  if (!job) throw new Error(`no import ${importId}`);
  return Array.from({ length: job.chunksTotal }, (_, chunk) => ({ kind: 'import_chunk', tenantId, importId, chunk, shard: shardOf(tenantId) }));
}

/** Hands messages to the Worker's operations consumer, as the Queues runtime would; answers acks and retries. */
export async function deliverOperations(bodies: readonly OperationMessage[], runEnv: Bindings = env) {
  const messages = bodies.map((body) => ({ id: `opmsg-${(messageSeq += 1)}`, timestamp: new Date(), attempts: 1, body }));
  const batch = createMessageBatch<OperationMessage>('loyalty-operations', messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, runEnv);
  return getQueueResult(batch, ctx);
}

/** Applies every chunk of the job, then answers the job as the API shows it. */
export async function runImport(member: TestMember, tenantId: string, importId: string): Promise<ImportJobView> {
  const result = await deliverOperations(await chunkMessages(tenantId, importId));
  if (result.retryMessages.length > 0) throw new Error(`chunks retried: ${JSON.stringify(result.retryMessages)}`);
  return getImportJob(member, tenantId, importId);
}

export async function getImportJob(member: TestMember, tenantId: string, importId: string): Promise<ImportJobView> {
  return expectOk(await portalCall(member, 'GET', importsPath(tenantId, `/${importId}`)), 200, importJobSchema);
}
