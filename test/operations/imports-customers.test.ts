import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { customerAttributeValues, customers, internalWallets } from '../../src/db/schema';
import { createImportJob, runImport } from '../support/imports';
import { defineAttribute } from '../support/segments';
import { createTenant, db } from '../support/world';

async function customersOf(tenantId: string) {
  return db().select().from(customers).where(eq(customers.tenantId, tenantId)).orderBy(customers.externalId);
}

describe('customers import', () => {
  it('creates customers with their wallets and attributes, quoted fields, a BOM and CRLF included', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'tier_hint', 'string');
    await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
    const csv = '\uFEFFexternal_id,email,username,country_code,status,attr.tier_hint,attr.age\r\n' +
      'u-1,One@Example.com,"Doe, Jane",DE,active,"gold\r\nline",41\r\n' +
      'u-2,,,,suspended,,\r\n';
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', csv);
    expect(job).toMatchObject({ kind: 'customers', status: 'queued', rows_total: 2, rows_ok: 0, errors: [], errors_url: null, created_by: expect.any(String) });
    const done = await runImport(tenant.owner, tenant.id, job.id);
    expect(done).toMatchObject({ status: 'completed', rows_total: 2, rows_ok: 2, rows_failed: 0, errors: [], completed_at: expect.any(String) });
    const rows = await customersOf(tenant.id);
    expect(rows.map(({ externalId, email, username, countryCode, status }) => ({ externalId, email, username, countryCode, status }))).toEqual([
      { externalId: 'u-1', email: 'one@example.com', username: 'Doe, Jane', countryCode: 'DE', status: 'active' },
      { externalId: 'u-2', email: null, username: null, countryCode: null, status: 'suspended' },
    ]);
    const wallets = await db().select().from(internalWallets).where(eq(internalWallets.tenantId, tenant.id));
    expect(wallets).toHaveLength(2);
    const values = await db().select().from(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenant.id), eq(customerAttributeValues.userId, rows[0]!.id)));
    expect(values.map((value) => value.valueText ?? value.valueNumber).sort()).toEqual([41, 'gold\r\nline'].sort());
  });
});
