import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { importJobSchema } from '../../src/schemas/import';
import { expectError, expectOk } from '../support/http';
import { createImportJob, importsPath, runImport, uploadCsv } from '../support/imports';
import { addMember, createTenant, otherTenants, portalCall } from '../support/world';

/** The import routes' reads, roles and tenant boundary (roles on every route: test/portal/auth.test.ts). */

describe('import routes', () => {
  it('lists the tenant\'s imports newest first, paged, each as GET answers it', async () => {
    const tenant = await createTenant();
    const first = await createImportJob(tenant.owner, tenant.id, 'customers', 'external_id\na\n');
    const second = await createImportJob(tenant.owner, tenant.id, 'balances', 'external_id,amount\na,1\n');
    const page = expectOk(await portalCall(tenant.owner, 'GET', importsPath(tenant.id, '?limit=1')), 200, pageSchema(importJobSchema));
    expect(page).toMatchObject({ total_count: 2, total_pages: 2, page: 1, limit: 1 });
    expect(page.items.map((job) => job.id)).toEqual([second.id]);
    const done = await runImport(tenant.owner, tenant.id, first.id);
    const next = expectOk(await portalCall(tenant.owner, 'GET', importsPath(tenant.id, '?page=2&limit=1')), 200, pageSchema(importJobSchema));
    expect(next.items).toEqual([done]);
    expectError(await portalCall(tenant.owner, 'GET', importsPath(tenant.id, '?limit=101')), 422, 'VALIDATION_FAILED');
  });

  it('lets an admin import; an editor gets 403 before the file is read', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    expectOk(await uploadCsv(admin, tenant.id, 'customers', 'external_id\nadmin-1\n'), 202, importJobSchema);
    const editor = await addMember(tenant.id, 'editor');
    expectError(await uploadCsv(editor, tenant.id, 'customers', 'external_id\neditor-1\n'), 403, 'FORBIDDEN');
  });

  it('answers 404 for another tenant\'s import (on another shard and on the same one) on every route, as for an id that does not exist', async () => {
    const tenant = await createTenant();
    const job = await createImportJob(tenant.owner, tenant.id, 'customers', 'external_id\nx\n,\n');
    await runImport(tenant.owner, tenant.id, job.id);
    expectOk(await portalCall(tenant.owner, 'GET', importsPath(tenant.id, `/${job.id}`)), 200, importJobSchema);
    expect((await portalCall(tenant.owner, 'GET', importsPath(tenant.id, `/${job.id}/errors`))).status).toBe(200);
    for (const path of [`/${job.id}`, `/${job.id}/errors`]) {
      expectError(await portalCall(tenant.owner, 'GET', importsPath(tenant.id, path.replace(job.id, 'imp_missing'))), 404, 'NOT_FOUND', 'Import not found');
    }
    for (const other of await otherTenants(tenant.id)) {
      for (const path of [`/${job.id}`, `/${job.id}/errors`]) {
        expectError(await portalCall(other.owner, 'GET', importsPath(other.id, path)), 404, 'NOT_FOUND', 'Import not found');
      }
      const list = expectOk(await portalCall(other.owner, 'GET', importsPath(other.id)), 200, pageSchema(importJobSchema));
      expect(list.items).toEqual([]);
    }
  });

  it('answers 404 for the error file of an import still running, or one without errors', async () => {
    const tenant = await createTenant();
    const running = await createImportJob(tenant.owner, tenant.id, 'customers', 'external_id\n,\n');
    expectError(await portalCall(tenant.owner, 'GET', importsPath(tenant.id, `/${running.id}/errors`)), 404, 'NOT_FOUND', 'Error file not found');
    const clean = await createImportJob(tenant.owner, tenant.id, 'customers', 'external_id\nclean-1\n');
    expect(await runImport(tenant.owner, tenant.id, clean.id)).toMatchObject({ rows_failed: 0, errors_url: null });
    expectError(await portalCall(tenant.owner, 'GET', importsPath(tenant.id, `/${clean.id}/errors`)), 404, 'NOT_FOUND', 'Error file not found');
  });
});
