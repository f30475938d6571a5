import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema';
import { AUDIT_RETENTION_DAYS } from '../../src/domain/audit';
import worker from '../../src/index';
import { newId } from '../../src/lib/ids';
import { pageSchema } from '../../src/lib/paging';
import { auditEntrySchema } from '../../src/schemas/audit-log';
import { call, expectError, expectOk } from '../support/http';
import { addMember, createTenant, db, otherTenants, portalCall, type TestTenant } from '../support/world';

/** GET /tenant/{t}/audit-log: filters, validation, roles, tenant isolation; no route writes an entry; retention. */

const DAY_MS = 86_400_000;
const list = (tenant: TestTenant, query = '', member = tenant.owner) => portalCall(member, 'GET', `/api/v1/tenant/${tenant.id}/audit-log${query}`);
const page = pageSchema(auditEntrySchema);

function entry(tenantId: string, at: string, fields: Partial<typeof auditLog.$inferInsert> = {}) {
  return { id: newId('aud'), tenantId, at, actorType: 'account' as const, actorId: 'acc_a', actorLabel: 'a@example.com', action: 'updateReward', targetType: 'reward', targetId: 'rwd_a', changes: '{}', requestId: newId('req'), writeId: newId('aw'), ...fields };
}

describe('the audit log route', () => {
  it('lists newest first and narrows by actor, action, target and [from, to)', async () => {
    const tenant = await createTenant('audit-list');
    await db(tenant.id).insert(auditLog).values([
      entry(tenant.id, '2026-01-01T00:00:00.000Z', { actorId: 'acc_a', action: 'createReward', targetId: 'rwd_1' }),
      entry(tenant.id, '2026-02-01T00:00:00.000Z', { actorId: 'acc_b', action: 'updateReward', targetId: 'rwd_1' }),
      entry(tenant.id, '2026-03-01T00:00:00.000Z', { actorId: 'acc_a', action: 'updateTier', targetId: 'tier_1', targetType: 'tier' }),
    ]);
    const at = (query: string) => async () => expectOk(await list(tenant, query), 200, page).items.map((item) => item.at.slice(0, 7));
    expect(await at('')()).toEqual(['2026-03', '2026-02', '2026-01']);
    expect(await at('?actor_id=acc_a')()).toEqual(['2026-03', '2026-01']);
    expect(await at('?action=updateReward')()).toEqual(['2026-02']);
    expect(await at('?target_id=rwd_1')()).toEqual(['2026-02', '2026-01']);
    expect(await at('?from=2026-02-01T00:00:00Z&to=2026-03-01T00:00:00Z')()).toEqual(['2026-02']);
    expect(await at('?from=2026-02-01T02:00:00%2B02:00')()).toEqual(['2026-03', '2026-02']);
    const paged = expectOk(await list(tenant, '?limit=2&page=2'), 200, page);
    expect(paged).toMatchObject({ total_count: 3, total_pages: 2, has_next_page: false });
  });

  it('422 naming the parameter for a bad filter, and to before from', async () => {
    const tenant = await createTenant('audit-422');
    const bad = expectError(await list(tenant, '?from=yesterday'), 422, 'VALIDATION_FAILED');
    expect(bad.errors).toEqual([expect.objectContaining({ path: 'from' })]);
    const reversed = expectError(await list(tenant, '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z'), 422, 'VALIDATION_FAILED');
    expect(reversed.errors).toEqual([{ path: 'to', message: 'Must not be before from' }]);
  });

  it("shows only the tenant's own entries; 403 to editors and viewers; 404 to a non-member (on another shard and on the same one)", async () => {
    const tenant = await createTenant('audit-own');
    await db(tenant.id).insert(auditLog).values(entry(tenant.id, new Date().toISOString()));
    // Other tenants' entries on another shard and on this tenant's: the list must filter by tenant, not only read the right shard.
    const others = await otherTenants(tenant.id, 'audit-other');
    await Promise.all(others.map((other) => db(other.id).insert(auditLog).values(entry(other.id, new Date().toISOString(), { targetId: 'rwd_other' }))));
    expect(expectOk(await list(tenant), 200, page).items.map((item) => item.target.id)).toEqual(['rwd_a']);
    for (const other of others) expectError(await list(tenant, '?target_id=rwd_other', other.owner), 404, 'NOT_FOUND', 'Tenant not found');
    for (const role of ['editor', 'viewer'] as const) expectError(await list(tenant, '', await addMember(tenant.id, role)), 403, 'FORBIDDEN', `Your role (${role}) may not read audit log in this tenant`);
    expect(expectOk(await list(tenant, '', await addMember(tenant.id, 'admin')), 200, page).total_count).toBe(1);
  });

  it('no route writes or deletes an entry: the document has only the GET', async () => {
    const document = (await call('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const auditPaths = Object.entries(document.paths).filter(([path]) => path.includes('audit'));
    expect(auditPaths.map(([path, item]) => [path, Object.keys(item)])).toEqual([['/tenant/{tenantId}/audit-log', ['get']]]);
  });

  it(`the hourly cron deletes entries older than ${AUDIT_RETENTION_DAYS} days and keeps the rest`, async () => {
    const tenant = await createTenant('audit-retention');
    const ago = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
    await db(tenant.id).insert(auditLog).values([entry(tenant.id, ago(AUDIT_RETENTION_DAYS + 1), { targetId: 'old' }), entry(tenant.id, ago(AUDIT_RETENTION_DAYS - 1), { targetId: 'kept' })]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '0 * * * *', scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await db(tenant.id).select().from(auditLog).where(eq(auditLog.tenantId, tenant.id))).map((row) => row.targetId)).toEqual(['kept']);
  });
});
