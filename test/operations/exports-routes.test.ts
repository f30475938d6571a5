import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { exportJobSchema } from '../../src/schemas/export';
import { getExport as getExportService } from '../../src/services/exports';
import { call, expectError, expectOk } from '../support/http';
import { completedExport, exportsPath, pathOf, requestExport } from '../support/exports';
import { createCohort, rulesOf } from '../support/segments';
import { createTenant, otherTenants, portalCall, services } from '../support/world';

/**
 * The export routes over HTTP: validation (422 naming the field), an unknown or foreign cohort
 * (404), another tenant's export (404), the list, and the signed download link: valid, expired,
 * tampered, and another tenant's. Roles and non-members: test/portal/auth.test.ts.
 */

const activeRules = rulesOf('and', { type: 'status', op: 'eq', value: 'active' });

describe('POST /exports', () => {
  it.each([
    ['no cohort for cohort_members', { kind: 'cohort_members' }, 'cohort_id', 'A cohort_members export names its cohort'],
    ['a cohort for customers', { kind: 'customers', cohort_id: 'coh_x' }, 'cohort_id', 'A customers export takes no cohort'],
    ['a period for cohort_members', { kind: 'cohort_members', cohort_id: 'coh_x', from: '2026-01-01T00:00:00Z' }, 'from', /takes no period/],
    ['from after to', { kind: 'internal_transactions', from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'from', 'from is after to'],
    ['a date that is no date-time', { kind: 'customers', to: '2026-01-01' }, 'to', undefined],
    ['an unknown kind', { kind: 'rewards' }, 'kind', undefined],
    ['an unknown field', { kind: 'customers', format: 'xlsx' }, 'format', 'Unknown field'],
  ])('422 for %s, naming the field', async (_name, body, path, message) => {
    const tenant = await createTenant('export-422');
    const error = expectError(await portalCall(tenant.owner, 'POST', exportsPath(tenant.id), body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toEqual([path]);
    if (message !== undefined) expect(error.errors[0]!.message).toMatch(message);
  });

  it("404 for an unknown cohort and for another tenant's cohort (on another shard and on the same one)", async () => {
    const tenant = await createTenant('export-cohort-404');
    const foreign = [];
    for (const other of await otherTenants(tenant.id, 'export-cohort-other')) foreign.push((await createCohort(other.owner, other.id, activeRules)).id);
    for (const cohortId of ['coh_missing', ...foreign]) {
      const error = expectError(await portalCall(tenant.owner, 'POST', exportsPath(tenant.id), { kind: 'cohort_members', cohort_id: cohortId }), 404, 'NOT_FOUND', 'Cohort not found');
      expect(error.errors).toEqual([{ path: 'cohort_id', message: 'Cohort not found' }]);
    }
  });

  it('answers 202 with the queued job, the requester and its filters', async () => {
    const tenant = await createTenant('export-202');
    const cohort = await createCohort(tenant.owner, tenant.id, activeRules);
    const job = await requestExport(tenant.owner, tenant.id, { kind: 'cohort_members', cohort_id: cohort.id });
    expect(job).toMatchObject({ kind: 'cohort_members', cohort_id: cohort.id, from: null, to: null, completed_at: null, file_expires_at: null, created_by: tenant.owner.accountId });
    expect(job.id).toMatch(/^exp_/);
  });
});

describe('GET /exports and /exports/{exportId}', () => {
  it("lists newest first, paged; a completed job carries a link, a queued one none; another tenant's export is a 404 (on another shard and on the same one)", async () => {
    const tenant = await createTenant('export-list');
    const done = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const queued = await requestExport(tenant.owner, tenant.id, { kind: 'internal_transactions' });
    const page = expectOk(await portalCall(tenant.owner, 'GET', exportsPath(tenant.id, '?limit=1')), 200, pageSchema(exportJobSchema));
    expect(page).toMatchObject({ total_count: 2, total_pages: 2, has_next_page: true });
    expect(page.items.map((item) => item.id)).toEqual([queued.id]);
    const second = expectOk(await portalCall(tenant.owner, 'GET', exportsPath(tenant.id, '?limit=1&page=2')), 200, pageSchema(exportJobSchema));
    expect(second.items[0]).toMatchObject({ id: done.id, status: 'completed' });
    expect(second.items[0]!.download_url).toMatch(new RegExp(`^https://loyalty\\.test/api/v1/files/exports/${done.id}\\?expires=\\d+&signature=[\\w-]{43}$`));
    for (const other of await otherTenants(tenant.id, 'export-list-other')) {
      expectError(await portalCall(other.owner, 'GET', exportsPath(other.id, `/${done.id}`)), 404, 'NOT_FOUND', 'Export not found');
    }
    expectError(await portalCall(tenant.owner, 'GET', exportsPath(tenant.id, '/exp_missing')), 404, 'NOT_FOUND', 'Export not found');
  });

  it('issues a fresh link on each read, valid one hour from that read', async () => {
    const tenant = await createTenant('export-fresh-link');
    const job = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const settings = { encryptionKey: env.API_KEY_ENCRYPTION_KEY, filesUrl: 'https://loyalty.test/api/v1/files/exports/' };
    const at = (iso: string) => getExportService(services(tenant.id, { now: () => new Date(iso) }), job.id, settings);
    const first = await at('2026-11-27T10:00:00.000Z');
    const later = await at('2026-11-27T10:30:00.000Z');
    expect(first.expires_at).toBe('2026-11-27T11:00:00.000Z');
    expect(later.expires_at).toBe('2026-11-27T11:30:00.000Z');
    expect(later.download_url).not.toBe(first.download_url);
  });
});

describe('GET /files/exports/{exportId} (the signed download link)', () => {
  it('serves the file to anyone holding a valid link, with no token, as an attachment', async () => {
    const tenant = await createTenant('export-link-valid');
    const job = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const response = await SELF.fetch(job.download_url!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="customers-${job.id}.csv"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(await response.text()).toMatch(/^id,external_id,/);
  });

  it('404 for a link past its hour', async () => {
    const tenant = await createTenant('export-link-expired');
    const job = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const settings = { encryptionKey: env.API_KEY_ENCRYPTION_KEY, filesUrl: 'https://loyalty.test/api/v1/files/exports/' };
    const issuedTwoHoursAgo = await getExportService(services(tenant.id, { now: () => new Date(Date.now() - 2 * 3_600_000) }), job.id, settings);
    expectError(await call('GET', pathOf(issuedTwoHoursAgo.download_url!)), 404, 'NOT_FOUND', /has expired/);
  });

  it("404 for a tampered link: another MAC, another export, another tenant's export (on another shard and on the same one), a later expiry", async () => {
    const tenant = await createTenant('export-link-tampered');
    const job = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const sibling = await completedExport(tenant.owner, tenant.id, { kind: 'internal_transactions' });
    const foreign = [];
    for (const other of await otherTenants(tenant.id, 'export-link-other')) foreign.push((await completedExport(other.owner, other.id, { kind: 'customers' })).id);
    const link = new URL(job.download_url!);
    expect(link.pathname).toBe(`/api/v1/files/exports/${job.id}`);
    const expires = Number(link.searchParams.get('expires'));
    const signature = link.searchParams.get('signature')!;
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const fileUrl = (exportId: string, query: string) => `/api/v1/files/exports/${exportId}?${query}`;
    for (const url of [
      fileUrl(job.id, `expires=${expires}&signature=${flipped}`),
      fileUrl(sibling.id, `expires=${expires}&signature=${signature}`),
      ...foreign.map((exportId) => fileUrl(exportId, `expires=${expires}&signature=${signature}`)),
      fileUrl(job.id, `expires=${expires + 3600}&signature=${signature}`),
    ]) {
      expectError(await call('GET', url), 404, 'NOT_FOUND', 'File not found');
    }
    expectError(await call('GET', fileUrl(job.id, `expires=${expires}`)), 422, 'VALIDATION_FAILED');
    expectError(await call('GET', fileUrl(job.id, `expires=${expires}&signature=${signature.slice(1)}`)), 422, 'VALIDATION_FAILED');
    // The untouched link still works.
    expect((await SELF.fetch(job.download_url!)).status).toBe(200);
  });
});
