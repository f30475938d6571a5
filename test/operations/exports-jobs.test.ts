import { env, SELF } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exportJobs } from '../../src/db/schema';
import { MIN_PART_BYTES } from '../../src/lib/multipart-writer';
import { runContext } from '../../src/services/context';
import { runExport } from '../../src/services/export-jobs';
import { createCustomerViaApi } from '../support/customers';
import { completedExport, deliverExports, downloadCsv, exportObjects, getExport, pathOf, requestExport, runExportWith } from '../support/exports';
import { createCohort, rulesOf } from '../support/segments';
import { runCron } from '../support/settlement';
import { call, expectError } from '../support/http';
import { createTenant, createTestApiKey, db, portalCall, shardOf, shardRun } from '../support/world';

/**
 * The export job as the operations queue runs it (src/services/export-jobs.ts): a file of several
 * R2 parts, redelivered and overlapping messages (one completed file, no row twice), a message after
 * completion, a cohort deleted before the run, and retention (the hourly cron deletes the file).
 */

const jobRow = async (tenantId: string, id: string) => (await db(tenantId).select().from(exportJobs).where(eq(exportJobs.id, id)))[0]!;

describe('export runs', () => {
  it('writes a file larger than one part in parts of R2\'s minimum size, and it downloads whole', async () => {
    const tenant = await createTenant('export-parts');
    // 1,500 customers of 4,000-character usernames: about 6 MB of CSV, more than one 5 MiB part.
    await db(tenant.id).run(sql`
      insert into customers (id, tenant_id, external_id, username, status)
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 1500)
      select printf('cus_big%05d', i), ${tenant.id}, printf('ext-%05d', i), printf('%05d', i) || replace(hex(zeroblob(1998)), '00', 'ab'), 'active' from n`);
    const job = await requestExport(tenant.owner, tenant.id, { kind: 'customers' });
    const result = await runExportWith(tenant.id, job.id, { partBytes: MIN_PART_BYTES });
    expect(result).toMatchObject({ completed: true, rows: 1500, parts: 2 });
    expect(result!.bytes).toBeGreaterThan(MIN_PART_BYTES);
    // What the export held at once stays near one part, never the file.
    expect(result!.peakHeldBytes).toBeLessThan(2 * MIN_PART_BYTES + 1024 * 1024);
    const done = await getExport(tenant.owner, tenant.id, job.id);
    const { records, response } = await downloadCsv(done.download_url!);
    expect(Number(response.headers.get('content-length'))).toBe(result!.bytes);
    expect(records).toHaveLength(1500);
    expect(records[1499]).toMatchObject({ id: 'cus_big01500', external_id: 'ext-01500' });
    expect(records[1499]!.username).toHaveLength(4001);
  });

  it('refuses a part smaller than R2 accepts (the last part excepted)', async () => {
    const tenant = await createTenant('export-small-part');
    const job = await requestExport(tenant.owner, tenant.id, { kind: 'customers' });
    await expect(runExportWith(tenant.id, job.id, { partBytes: 1024 })).rejects.toThrow(/at least/);
  });

  it('a redelivered message writes the file afresh: one completed file, each row once; a message after completion does nothing', async () => {
    const tenant = await createTenant('export-redelivery');
    const key = await createTestApiKey(tenant.id);
    const customers = [await createCustomerViaApi(key), await createCustomerViaApi(key), await createCustomerViaApi(key)];
    const job = await requestExport(tenant.owner, tenant.id, { kind: 'customers' });
    // Two deliveries of the message overlap: the second takes the job over before the first finishes.
    const first = runExport(shardRun(tenant.id), env, { kind: 'export', exportId: job.id, shard: shardOf(tenant.id) }, { pageSize: 1 });
    const second = runExport(shardRun(tenant.id), env, { kind: 'export', exportId: job.id, shard: shardOf(tenant.id) }, { pageSize: 1 });
    const results = await Promise.all([first, second]);
    // Both wrote a whole file; only the later one completed the job, and the earlier deleted its own.
    expect(results.map((result) => result?.completed)).toEqual([false, true]);
    const row = await jobRow(tenant.id, job.id);
    expect(row).toMatchObject({ status: 'completed', rows: 3 });
    expect(await exportObjects(tenant.id, job.id)).toEqual([row.fileKey]);

    // Delivered again after completion (the queue's at-least-once): nothing changes.
    const acks = await deliverExports([job.id, job.id]);
    expect(acks.explicitAcks).toHaveLength(2);
    expect(await jobRow(tenant.id, job.id)).toEqual(row);
    expect(await exportObjects(tenant.id, job.id)).toEqual([row.fileKey]);
    const { records } = await downloadCsv((await getExport(tenant.owner, tenant.id, job.id)).download_url!);
    expect(records.map((record) => record.id)).toEqual(customers.map((customer) => customer.id));
  });

  it('fails the job, with its reason, when the cohort was deleted before the run', async () => {
    const tenant = await createTenant('export-cohort-gone');
    const cohort = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'status', op: 'eq', value: 'active' }));
    const job = await requestExport(tenant.owner, tenant.id, { kind: 'cohort_members', cohort_id: cohort.id });
    const deleted = await portalCall(tenant.owner, 'DELETE', `/api/v1/tenant/${tenant.id}/cohorts/${cohort.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await deliverExports([job.id])).explicitAcks).toHaveLength(1);
    expect(await getExport(tenant.owner, tenant.id, job.id)).toMatchObject({ status: 'failed', failure_reason: 'The cohort was deleted before the export ran', download_url: null });
    expect(await exportObjects(tenant.id, job.id)).toEqual([]);
  });
});

describe('retention', () => {
  it('the hourly cron deletes files completed more than 7 days ago; the job then reads expired, without a link, and old links answer 404', async () => {
    const tenant = await createTenant('export-retention');
    const old = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const recent = await completedExport(tenant.owner, tenant.id, { kind: 'internal_transactions' });
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await db(tenant.id).update(exportJobs).set({ completedAt: eightDaysAgo }).where(eq(exportJobs.id, old.id));
    const oldKey = (await jobRow(tenant.id, old.id)).fileKey!;

    await runCron(env, '0 * * * *');

    expect(await env.FILES.head(oldKey)).toBeNull();
    expect(await getExport(tenant.owner, tenant.id, old.id)).toMatchObject({ status: 'expired', download_url: null, expires_at: null, file_expires_at: null });
    expectError(await call('GET', pathOf(old.download_url!)), 404, 'NOT_FOUND', 'File not found');
    const kept = await getExport(tenant.owner, tenant.id, recent.id);
    expect(kept.status).toBe('completed');
    expect((await SELF.fetch(kept.download_url!)).status).toBe(200);
  });

  it("an erasure expires every file begun before it: never served again, deleted by the hourly cron; a later export is served", async () => {
    const tenant = await createTenant('export-erasure');
    const key = await createTestApiKey(tenant.id);
    const person = await createCustomerViaApi(key, { email: 'gone@example.com' });
    const before = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const fileKey = (await jobRow(tenant.id, before.id)).fileKey!;
    const erased = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/customers/${person.id}/erase`);
    expect(erased.status, erased.text).toBe(200);

    expect(await getExport(tenant.owner, tenant.id, before.id)).toMatchObject({ status: 'expired', download_url: null });
    expectError(await call('GET', pathOf(before.download_url!)), 404, 'NOT_FOUND', 'File not found');
    await runCron(env, '0 * * * *');
    expect(await env.FILES.head(fileKey)).toBeNull();
    expect((await jobRow(tenant.id, before.id)).status).toBe('expired');

    const after = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const { records } = await downloadCsv(after.download_url!);
    expect(records).toMatchObject([{ id: person.id, email: '' }]);
  });

  it('the hourly cron fails a job whose message is gone (2 hours without a run), and a late delivery then does nothing', async () => {
    const tenant = await createTenant('export-abandoned');
    const stuck = await requestExport(tenant.owner, tenant.id, { kind: 'customers' });
    const fresh = await requestExport(tenant.owner, tenant.id, { kind: 'customers' });
    const threeHoursAgo = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await db(tenant.id).update(exportJobs).set({ status: 'running', runId: 'run_lost', updatedAt: threeHoursAgo }).where(eq(exportJobs.id, stuck.id));

    await runCron(env, '0 * * * *');

    expect(await getExport(tenant.owner, tenant.id, stuck.id)).toMatchObject({ status: 'failed', failure_reason: 'The export did not finish: ask for it again' });
    expect((await getExport(tenant.owner, tenant.id, fresh.id)).status).toBe('queued');
    expect(await runExportWith(tenant.id, stuck.id, {})).toBeUndefined();
    expect(await exportObjects(tenant.id, stuck.id)).toEqual([]);
  });
});
