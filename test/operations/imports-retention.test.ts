import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { importErrors, importJobs } from '../../src/db/schema';
import { IMPORT_CHUNK_ROWS } from '../../src/domain/imports';
import type { OperationMessage } from '../../src/env';
import { runContext } from '../../src/services/context';
import { IMPORT_FILE_RETENTION_DAYS, MAX_IMPORT_RESUMES, purgeImportFiles, resumeStalledImports } from '../../src/services/import-retention';
import { chunkMessages, createImportJob, deliverOperations, getImportJob, runImport } from '../support/imports';
import { createTenant, db, shardD1, shardRun } from '../support/world';

/** Retention of an import's files, and the hourly resume of an import that lost a message (docs/OPERATIONS.md). */

const DAY_MS = 86_400_000;

async function jobRow(tenantId: string, id: string) {
  const [job] = await db(tenantId).select().from(importJobs).where(and(eq(importJobs.id, id), eq(importJobs.tenantId, tenantId)));
  return job!;
}

/** A queue that records what is sent to it. */
function recordingQueue() {
  const sent: OperationMessage[] = [];
  const queue = {
    send: async (body: OperationMessage) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: OperationMessage }>) => void sent.push(...[...messages].map((message) => message.body)),
  } as unknown as Queue<OperationMessage>;
  return { queue, sent };
}

describe('import retention', () => {
  it(`deletes the upload and the error file ${IMPORT_FILE_RETENTION_DAYS} days after the import finished, keeping the job and its first errors`, async () => {
    const tenant = await createTenant();
    const bad = Array.from({ length: 130 }, () => ',');
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', ['external_id', 'kept-1', ...bad, ''].join('\n'));
    const done = await runImport(tenant.owner, tenant.id, job.id);
    expect(done).toMatchObject({ rows_ok: 1, rows_failed: 130, errors_url: expect.any(String) });
    const [row] = await db(tenant.id).select().from(importJobs).where(eq(importJobs.id, job.id));
    const keys = [row!.fileKey!, row!.errorFileKey!];
    expect(await Promise.all(keys.map(async (key) => (await env.FILES.head(key)) !== null))).toEqual([true, true]);

    const at = (days: number) => shardRun(tenant.id, { now: () => new Date(Date.parse(done.completed_at!) + days * DAY_MS) });
    await purgeImportFiles(at(IMPORT_FILE_RETENTION_DAYS - 1), env.FILES);
    expect(await env.FILES.head(keys[0]!)).not.toBeNull();
    await purgeImportFiles(at(IMPORT_FILE_RETENTION_DAYS + 1), env.FILES);
    expect(await Promise.all(keys.map((key) => env.FILES.head(key)))).toEqual([null, null]);
    const after = await getImportJob(tenant.owner, tenant.id, job.id);
    expect(after).toEqual({ ...done, errors_url: null });
    expect(await db(tenant.id).select().from(importErrors).where(and(eq(importErrors.importId, job.id), eq(importErrors.tenantId, tenant.id)))).toHaveLength(100);
  });
});

describe('stalled imports', () => {
  it('sends again, after an hour without progress, the chunks not yet applied; they apply once', async () => {
    const tenant = await createTenant();
    const rows = Array.from({ length: 2 * IMPORT_CHUNK_ROWS + 50 }, (_, index) => `stall-${index}`);
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', ['external_id', ...rows, ''].join('\n'));
    const [first] = await chunkMessages(tenant.id, job.id);
    expect((await deliverOperations([first!])).retryMessages).toEqual([]);
    const { queue, sent } = recordingQueue();
    await resumeStalledImports(shardRun(tenant.id), queue);
    expect(sent.filter((message) => message.kind === 'import_chunk' && message.importId === job.id)).toEqual([]);
    await resumeStalledImports(shardRun(tenant.id, { now: () => new Date(Date.now() + 2 * 60 * 60 * 1000) }), queue);
    const resent = sent.filter((message) => message.kind === 'import_chunk' && message.importId === job.id);
    expect(resent.map((message) => (message.kind === 'import_chunk' ? message.chunk : -1))).toEqual([1, 2]);
    expect((await deliverOperations([first!, ...resent])).retryMessages).toEqual([]);
    expect(await getImportJob(tenant.owner, tenant.id, job.id)).toMatchObject({ status: 'completed', rows_ok: 2 * IMPORT_CHUNK_ROWS + 50 });
  });
});

describe('an import whose chunk fails on every delivery', () => {
  it(`is failed after ${MAX_IMPORT_RESUMES} resends without progress; progress in between starts the count again; what was applied stays`, async () => {
    const tenant = await createTenant();
    const rows = Array.from({ length: 2 * IMPORT_CHUNK_ROWS + 10 }, (_, index) => `stuck-${index}`);
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', ['external_id', ...rows, ''].join('\n'));
    const [first, second, third] = await chunkMessages(tenant.id, job.id);
    const poisoned = `stuck-${2 * IMPORT_CHUNK_ROWS + 3}`;
    await shardD1(tenant.id).exec(`CREATE TRIGGER test_chunk_always_fails BEFORE INSERT ON customers WHEN NEW.external_id = '${poisoned}' BEGIN SELECT RAISE(ABORT, 'this chunk always fails'); END`);
    try {
      expect((await deliverOperations([first!])).retryMessages).toEqual([]);
      const { queue, sent } = recordingQueue();
      const resumeAt = async (hours: number) => {
        sent.length = 0;
        await resumeStalledImports(shardRun(tenant.id, { now: () => new Date(Date.now() + hours * 60 * 60 * 1000) }), queue);
        return sent.flatMap((message) => (message.kind === 'import_chunk' && message.importId === job.id ? [message.chunk] : []));
      };
      expect(await resumeAt(2)).toEqual([1, 2]);
      expect(await jobRow(tenant.id, job.id)).toMatchObject({ resumes: 1 });
      expect((await deliverOperations([second!])).retryMessages).toEqual([]);
      expect(await jobRow(tenant.id, job.id)).toMatchObject({ resumes: 0, chunksDone: 2 });
      for (let resend = 1; resend <= MAX_IMPORT_RESUMES; resend++) {
        expect(await resumeAt(2 + 2 * resend)).toEqual([2]);
        expect((await deliverOperations([third!])).retryMessages).toHaveLength(1);
      }
      expect(await resumeAt(4 + 2 * MAX_IMPORT_RESUMES)).toEqual([]);
      expect(await getImportJob(tenant.owner, tenant.id, job.id)).toMatchObject({ status: 'failed', rows_ok: 2 * IMPORT_CHUNK_ROWS, rows_failed: 0 });
      expect(await resumeAt(6 + 2 * MAX_IMPORT_RESUMES)).toEqual([]);
    } finally {
      await shardD1(tenant.id).exec('DROP TRIGGER test_chunk_always_fails');
    }
  });
});
