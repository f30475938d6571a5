import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { importJobs } from '../../src/db/schema';
import { MAX_IMPORT_BYTES } from '../../src/domain/imports';
import { importJobSchema } from '../../src/schemas/import';
import { expectError, expectOk } from '../support/http';
import { uploadCsv } from '../support/imports';
import { defineAttribute } from '../support/segments';
import { createTenant, db } from '../support/world';

/** What an upload refuses before any job exists (CONTRACT.md, Imports), and what it answers twice. */

async function jobsOf(tenantId: string) {
  return db(tenantId).select().from(importJobs).where(eq(importJobs.tenantId, tenantId));
}

/** A valid balances file of exactly `size` bytes: a header, then `x,1` rows padded by the last one's notes. */
function fileOfSize(size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x61);
  const head = new TextEncoder().encode('external_id,amount,notes\nx,1,');
  bytes.set(head, 0);
  return bytes;
}

describe('import uploads', () => {
  it('422 for a header without a required column, with an unknown column, a repeated column or an undefined attribute, naming the column', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
    expectError(await uploadCsv(tenant.owner, tenant.id, 'customers', 'email\na@example.com\n'), 422, 'VALIDATION_FAILED', 'The header row is not valid: Column "external_id" is required');
    const unknown = await uploadCsv(tenant.owner, tenant.id, 'customers', 'external_id,emial\nx,a@example.com\n');
    expectError(unknown, 422, 'VALIDATION_FAILED', /Unknown column "emial"/);
    expect((unknown.body as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual(['header.emial']);
    expectError(await uploadCsv(tenant.owner, tenant.id, 'balances', 'external_id,amount,amount\nx,1,1\n'), 422, 'VALIDATION_FAILED', /Column "amount" appears more than once/);
    const attribute = await uploadCsv(tenant.owner, tenant.id, 'customers', 'external_id,attr.age,attr.shoe\nx,1,2\n');
    expectError(attribute, 422, 'VALIDATION_FAILED', 'The header row is not valid: Attribute "shoe" is not defined');
    expect((attribute.body as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual(['header.attr.shoe']);
    expect(await jobsOf(tenant.id)).toEqual([]);
  });

  it('422 for an empty file, a file that is not CSV and one that is not UTF-8; 415 for another content type; 422 for an unknown kind', async () => {
    const tenant = await createTenant();
    expectError(await uploadCsv(tenant.owner, tenant.id, 'customers', ''), 422, 'VALIDATION_FAILED', /header row is required/);
    expectError(await uploadCsv(tenant.owner, tenant.id, 'customers', 'external_id,email\nx,"unclosed\n'), 422, 'VALIDATION_FAILED', /^The file is not valid CSV: /);
    const latin1 = new Uint8Array([...new TextEncoder().encode('external_id,username\nx,'), 0xe9, 0x0a]);
    expectError(await uploadCsv(tenant.owner, tenant.id, 'customers', latin1), 422, 'VALIDATION_FAILED', 'The file is not UTF-8');
    expectError(await uploadCsv(tenant.owner, tenant.id, 'customers', 'external_id\nx\n', { 'content-type': 'application/json' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await uploadCsv(tenant.owner, tenant.id, 'points', 'external_id\nx\n'), 422, 'VALIDATION_FAILED');
    expect(await jobsOf(tenant.id)).toEqual([]);
  });

  it('takes a file of exactly 50 MiB and refuses 50 MiB + 1 byte with 413, with and without Content-Length', async () => {
    const tenant = await createTenant();
    const tooLarge = fileOfSize(MAX_IMPORT_BYTES + 1);
    expectError(await uploadCsv(tenant.owner, tenant.id, 'balances', tooLarge), 413, 'PAYLOAD_TOO_LARGE');
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < tooLarge.byteLength; offset += 1024 * 1024) controller.enqueue(tooLarge.slice(offset, offset + 1024 * 1024));
        controller.close();
      },
    });
    expectError(await uploadCsv(tenant.owner, tenant.id, 'balances', streamed), 413, 'PAYLOAD_TOO_LARGE');
    expect(await jobsOf(tenant.id)).toEqual([]);
    const job = expectOk(await uploadCsv(tenant.owner, tenant.id, 'balances', fileOfSize(MAX_IMPORT_BYTES)), 202, importJobSchema);
    expect(job.rows_total).toBe(1);
  });

  it('answers the same file and kind with the first job (200); another kind or file is a new job', async () => {
    const tenant = await createTenant();
    const csv = 'external_id,amount\nx,1\n';
    const first = expectOk(await uploadCsv(tenant.owner, tenant.id, 'balances', csv), 202, importJobSchema);
    expect(first.file_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(expectOk(await uploadCsv(tenant.owner, tenant.id, 'balances', csv), 200, importJobSchema)).toEqual(first);
    const other = expectOk(await uploadCsv(tenant.owner, tenant.id, 'balances', `${csv}y,2\n`), 202, importJobSchema);
    expect(other.id).not.toBe(first.id);
    expect(await jobsOf(tenant.id)).toHaveLength(2);
  });
});
