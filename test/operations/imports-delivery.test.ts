import { env } from 'cloudflare:test';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, importChunks, importJobs } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { IMPORT_CHUNK_ROWS } from '../../src/domain/imports';
import { importJobSchema } from '../../src/schemas/import';
import { runContext } from '../../src/services/context';
import { applyImportChunk, type ChunkMessage } from '../../src/services/import-chunks';
import { expectOk } from '../support/http';
import { chunkMessages, createImportJob, deliverOperations, getImportJob, uploadRequest } from '../support/imports';
import { race, raceTasks } from '../support/race';
import { createTenant, db, shardD1, shardRun } from '../support/world';

/**
 * Exactly once (CONTRACT.md, Imports): a chunk redelivered, delivered twice at once, or retried
 * after its consumer died mid-chunk applies each row once; two uploads of one file are one job.
 */

const HEADER = 'external_id,username';
const fileOf = (prefix: string, rows: number) => [HEADER, ...Array.from({ length: rows }, (_, index) => `${prefix}-${index},name ${index}`), ''].join('\n');

async function customersLike(tenantId: string, prefix: string) {
  return db(tenantId).select().from(customers).where(and(eq(customers.tenantId, tenantId), like(customers.externalId, `${prefix}-%`)));
}

async function jobRow(tenantId: string, id: string) {
  const [job] = await db(tenantId).select().from(importJobs).where(and(eq(importJobs.id, id), eq(importJobs.tenantId, tenantId)));
  return job!;
}

describe('import chunks, delivered again and again', () => {
  it('applies a chunk redelivered after it was applied once: same rows, same counts', async () => {
    const tenant = await createTenant();
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', fileOf('re', IMPORT_CHUNK_ROWS + 50));
    const messages = await chunkMessages(tenant.id, job.id);
    expect(messages).toHaveLength(2);
    expect((await deliverOperations(messages)).retryMessages).toEqual([]);
    const once = await getImportJob(tenant.owner, tenant.id, job.id);
    expect((await deliverOperations([...messages, ...messages])).retryMessages).toEqual([]);
    expect(await getImportJob(tenant.owner, tenant.id, job.id)).toEqual(once);
    expect(once).toMatchObject({ status: 'completed', rows_ok: IMPORT_CHUNK_ROWS + 50, rows_failed: 0 });
    expect(await customersLike(tenant.id, 're')).toHaveLength(IMPORT_CHUNK_ROWS + 50);
  });

  it('applies a chunk delivered to two consumers at the same time once', async () => {
    const tenant = await createTenant();
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', fileOf('twin', 40));
    const [message] = (await chunkMessages(tenant.id, job.id)) as ChunkMessage[];
    const options = { files: env.FILES, walletMnemonic: env.WALLET_MNEMONIC! };
    // Both have read the job and planned the rows before either batch reaches D1.
    const { held } = await raceTasks(
      [0, 1].map(() => (runEnv: Bindings) => applyImportChunk(shardRun(tenant.id, {}, runEnv), message!, options)),
      /insert into "import_chunks"/i,
    );
    expect(held).toBe(2);
    expect(await customersLike(tenant.id, 'twin')).toHaveLength(40);
    expect(await getImportJob(tenant.owner, tenant.id, job.id)).toMatchObject({ status: 'completed', rows_ok: 40, rows_failed: 0 });
  });

  it('leaves nothing of a chunk whose consumer failed part-way; the retry applies every row once', async () => {
    const tenant = await createTenant();
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', fileOf('mid', 30));
    const messages = await chunkMessages(tenant.id, job.id);
    // The 20th row's insert fails after 19 rows' statements ran in the batch.
    await shardD1(tenant.id).exec(`CREATE TRIGGER test_import_dies BEFORE INSERT ON customers WHEN NEW.external_id = 'mid-19' BEGIN SELECT RAISE(ABORT, 'consumer died mid-chunk'); END`);
    const failed = await deliverOperations(messages);
    expect(failed.retryMessages).toHaveLength(1);
    expect(await customersLike(tenant.id, 'mid')).toEqual([]);
    expect(await db(tenant.id).select().from(importChunks).where(eq(importChunks.importId, job.id))).toEqual([]);
    expect(await jobRow(tenant.id, job.id)).toMatchObject({ status: 'queued', rowsOk: 0, rowsFailed: 0, chunksDone: 0 });
    await shardD1(tenant.id).exec('DROP TRIGGER test_import_dies');
    expect((await deliverOperations(messages)).retryMessages).toEqual([]);
    expect(await customersLike(tenant.id, 'mid')).toHaveLength(30);
    expect(await getImportJob(tenant.owner, tenant.id, job.id)).toMatchObject({ status: 'completed', rows_ok: 30 });
  });

  it('writes the error file on a redelivery when the consumer that completed the job died before writing it', async () => {
    const tenant = await createTenant();
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', `${HEADER}\nok-1,a\n,missing id\n`);
    const messages = await chunkMessages(tenant.id, job.id);
    expect((await deliverOperations(messages)).retryMessages).toEqual([]);
    // As if the consumer had died between the chunk's batch and the error file.
    await db(tenant.id).update(importJobs).set({ errorFileKey: null }).where(eq(importJobs.id, job.id));
    expect((await getImportJob(tenant.owner, tenant.id, job.id)).errors_url).toBeNull();
    expect((await deliverOperations(messages)).retryMessages).toEqual([]);
    expect(await getImportJob(tenant.owner, tenant.id, job.id)).toMatchObject({ rows_ok: 1, rows_failed: 1, errors_url: expect.stringMatching(/\/errors$/) });
  });
});

describe('two uploads of the same file at once', () => {
  it('make one job (202 and 200 with it) and one set of applied rows', async () => {
    const tenant = await createTenant();
    const csv = fileOf('same', 12);
    const { responses, held } = await race(
      [0, 1].map(() => uploadRequest(tenant.owner, tenant.id, 'customers', csv)),
      /insert into "import_jobs"/i,
    );
    expect(held).toBe(2);
    expect(responses.map((res) => res.status).sort()).toEqual([200, 202]);
    const [first, second] = responses.map((res) => expectOk(res, res.status, importJobSchema));
    expect(second!.id).toBe(first!.id);
    expect(await db(tenant.id).select().from(importJobs).where(eq(importJobs.tenantId, tenant.id))).toHaveLength(1);
    const listed = await env.FILES.list({ prefix: `imports/${tenant.id}/` });
    expect(listed.objects).toHaveLength(1);
    expect((await deliverOperations(await chunkMessages(tenant.id, first!.id))).retryMessages).toEqual([]);
    expect(await customersLike(tenant.id, 'same')).toHaveLength(12);
  });
});
