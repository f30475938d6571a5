import { SELF } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerAttributeValues, customers, internalWallets } from '../../src/db/schema';
import { IMPORT_CHUNK_ROWS } from '../../src/domain/imports';
import { createCustomerViaApi } from '../support/customers';
import { BASE } from '../support/http';
import { createImportJob, importsPath, runImport } from '../support/imports';
import { defineAttribute } from '../support/segments';
import { createTenant, createTestApiKey, db, portalCall } from '../support/world';

/** Customers files (CONTRACT.md, Imports): upserts by external_id, as the gateway's upsert does. */

async function customersOf(tenantId: string) {
  return db(tenantId).select().from(customers).where(eq(customers.tenantId, tenantId)).orderBy(customers.externalId);
}

const profile = ({ externalId, email, username, countryCode, status }: typeof customers.$inferSelect) => ({ externalId, email, username, countryCode, status });

describe('customers import', () => {
  it('creates customers with their wallets and attributes, quoted fields, a BOM and CRLF included', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'tier_hint', 'string');
    await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
    const csv =
      '\uFEFFexternal_id,email,username,country_code,status,attr.tier_hint,attr.age\r\n' +
      'u-1,One@Example.com,"Doe, Jane",DE,active,"gold\r\nline",41\r\n' +
      'u-2,,,,suspended,,\r\n';
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', csv);
    expect(job).toMatchObject({ kind: 'customers', status: 'queued', rows_total: 2, rows_ok: 0, errors: [], errors_url: null, created_by: expect.any(String) });
    const done = await runImport(tenant.owner, tenant.id, job.id);
    expect(done).toMatchObject({ status: 'completed', rows_total: 2, rows_ok: 2, rows_failed: 0, errors: [], completed_at: expect.any(String) });
    const rows = await customersOf(tenant.id);
    expect(rows.map(profile)).toEqual([
      { externalId: 'u-1', email: 'one@example.com', username: 'Doe, Jane', countryCode: 'DE', status: 'active' },
      { externalId: 'u-2', email: null, username: null, countryCode: null, status: 'suspended' },
    ]);
    const wallets = await db(tenant.id).select().from(internalWallets).where(eq(internalWallets.tenantId, tenant.id));
    expect(new Set(wallets.map((wallet) => wallet.userId))).toEqual(new Set(rows.map((row) => row.id)));
    const values = await db(tenant.id).select().from(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenant.id), eq(customerAttributeValues.userId, rows[0]!.id)));
    expect(values.map((value) => value.valueText ?? value.valueNumber).sort()).toEqual([41, 'gold\r\nline'].sort());
  });

  it('updates an existing customer by external_id: a blank cell changes nothing, a status moves as allowed', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const existing = await createCustomerViaApi(key, { external_id: 'old-1', email: 'old@example.com', username: 'old', country_code: 'FR' });
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', 'external_id,email,username,country_code,status\nold-1,new@example.com,,,suspended\n');
    expect(await runImport(tenant.owner, tenant.id, job.id)).toMatchObject({ rows_ok: 1, rows_failed: 0 });
    const [row] = await customersOf(tenant.id);
    expect(row!.id).toBe(existing.id);
    expect(profile(row!)).toEqual({ externalId: 'old-1', email: 'new@example.com', username: 'old', countryCode: 'FR', status: 'suspended' });
  });

  it('applies a repeated external_id in file order, in one chunk and across chunks: one customer, the last values', async () => {
    const tenant = await createTenant();
    const filler = Array.from({ length: IMPORT_CHUNK_ROWS + 50 }, (_, index) => `f-${index},,,,`);
    const csv = ['external_id,email,username,country_code,status', 'dup,a@example.com,first,,', 'dup,,second,,', ...filler, 'dup,,third,DE,suspended', ''].join('\n');
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', csv);
    expect(await runImport(tenant.owner, tenant.id, job.id)).toMatchObject({ rows_total: IMPORT_CHUNK_ROWS + 53, rows_ok: IMPORT_CHUNK_ROWS + 53, rows_failed: 0 });
    const dup = (await customersOf(tenant.id)).filter((row) => row.externalId === 'dup');
    expect(dup.map(profile)).toEqual([{ externalId: 'dup', email: 'a@example.com', username: 'third', countryCode: 'DE', status: 'suspended' }]);
  });

  it('never reaches an erased customer: the old external id makes a new one', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const erased = await createCustomerViaApi(key, { external_id: 'gone-1', email: 'gone@example.com' });
    expect((await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/customers/${erased.id}/erase`)).status).toBe(200);
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', 'external_id,email\ngone-1,back@example.com\n');
    expect(await runImport(tenant.owner, tenant.id, job.id)).toMatchObject({ rows_ok: 1 });
    const [revived] = (await customersOf(tenant.id)).filter((row) => row.externalId === 'gone-1');
    expect(revived!.id).not.toBe(erased.id);
    const [tombstone] = await db(tenant.id).select().from(customers).where(eq(customers.id, erased.id));
    expect(tombstone!.email).toBeNull();
  });

  it('reports each bad row by number and applies the others; the error file has them all', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
    const key = await createTestApiKey(tenant.id);
    await createCustomerViaApi(key, { external_id: 'active-1' });
    const good = Array.from({ length: 120 }, (_, index) => `ok-${index},,,`);
    const csv = [
      'external_id,email,country_code,attr.age,status',
      'bad-email,not-an-email,,,',
      'bad-country,,XX,,',
      'bad-age,,,forty,',
      'too,many,fields,,,',
      ',,,,',
      'active-1,,,,pending',
      'bad-status,,,,frozen',
      ...good.map((row) => `${row},`),
      'multi,"line\nemail",,,',
    ].join('\r\n');
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', csv);
    const done = await runImport(tenant.owner, tenant.id, job.id);
    expect(done).toMatchObject({ status: 'completed', rows_total: 128, rows_ok: 120, rows_failed: 8 });
    expect(done.errors.map((error) => error.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 129]);
    expect(done.errors[0]!.message).toMatch(/^email: /);
    expect(done.errors[1]!.message).toMatch(/^country_code: /);
    expect(done.errors[2]!.message).toMatch(/^attr\.age: .*number/);
    expect(done.errors[3]!.message).toBe('The row has 6 fields, the header 5');
    expect(done.errors[4]!.message).toMatch(/^external_id: /);
    expect(done.errors[5]!.message).toBe('status: the customer is active and cannot move to pending');
    expect(done.errors[6]!.message).toMatch(/^status: must be one of/);
    expect(done.errors_url).toBe(importsPath(tenant.id, `/${job.id}/errors`));
    const file = await SELF.fetch(`${BASE}${done.errors_url}`, { headers: { authorization: `Bearer ${tenant.owner.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await file.text()).trim().split('\n');
    expect(lines[0]).toBe('row,message');
    expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toEqual([2, 3, 4, 5, 6, 7, 8, 129]);
    expect((await customersOf(tenant.id)).filter((row) => row.externalId.startsWith('ok-'))).toHaveLength(120);
  });
});
