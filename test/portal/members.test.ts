import { z } from '@hono/zod-openapi';
import { and, eq, or } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { memberships } from '../../src/db/schema';
import { pageSchema } from '../../src/lib/paging';
import { memberSchema } from '../../src/schemas/member';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { newIdentity } from '../support/tokens';
import { addMember, createPerson, createTenant, db, otherTenants, portalCall, type TestMember, type TestTenant } from '../support/world';

const membersPath = (tenantId: string) => `/api/v1/tenant/${tenantId}/members`;
const memberPath = (tenantId: string, userId: string) => `${membersPath(tenantId)}/${userId}`;
const memberPage = pageSchema(memberSchema);

/** Pins a membership's creation time (by account id or membership id) so ordering is deterministic. */
async function setCreatedAt(tenantId: string, userId: string, createdAt: string) {
  await db(tenantId)
    .update(memberships)
    .set({ createdAt })
    .where(and(eq(memberships.tenantId, tenantId), or(eq(memberships.accountId, userId), eq(memberships.id, userId))));
}

async function listAll(tenant: TestTenant, caller: TestMember = tenant.owner) {
  return expectOk(await portalCall(caller, 'GET', `${membersPath(tenant.id)}?limit=100`), 200, memberPage).items;
}

describe('GET /tenant/{tenantId}/members', () => {
  it('lets any member list members and invitations, newest first', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    const invitedEmail = newIdentity('invitee').email;
    const invited = expectOk(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: invitedEmail, role: 'editor' }), 201, memberSchema);
    await setCreatedAt(tenant.id, tenant.owner.accountId, '2026-01-01T00:00:00.000Z');
    await setCreatedAt(tenant.id, viewer.accountId, '2026-01-02T00:00:00.000Z');
    await setCreatedAt(tenant.id, invited.id, '2026-01-03T00:00:00.000Z');

    const page = expectOk(await portalCall(viewer, 'GET', membersPath(tenant.id)), 200, memberPage);
    expect(page).toMatchObject({ total_count: 3, page: 1, limit: 20, total_pages: 1, has_next_page: false });
    expect(page.items.map((m) => m.email)).toEqual([invitedEmail, viewer.email, tenant.owner.email]);
    expect(page.items[0]).toMatchObject({ user_id: null, username: null, role: 'editor', status: 'invited' });
    expect(page.items[2]).toMatchObject({ user_id: tenant.owner.accountId, role: 'super_admin', status: 'active' });
    expect(page.items[2]?.id).not.toBe(tenant.owner.accountId);
  });

  it('pages with page and limit, and rejects an out-of-range limit', async () => {
    const tenant = await createTenant();
    const editor = await addMember(tenant.id, 'editor');
    await setCreatedAt(tenant.id, tenant.owner.accountId, '2026-01-01T00:00:00.000Z');
    await setCreatedAt(tenant.id, editor.accountId, '2026-01-02T00:00:00.000Z');
    const page = expectOk(await portalCall(tenant.owner, 'GET', `${membersPath(tenant.id)}?page=2&limit=1`), 200, memberPage);
    expect(page).toMatchObject({ total_count: 2, page: 2, limit: 1, total_pages: 2, has_next_page: false });
    expect(page.items.map((m) => m.user_id)).toEqual([tenant.owner.accountId]);
    expectError(await portalCall(tenant.owner, 'GET', `${membersPath(tenant.id)}?limit=101`), 422, 'VALIDATION_FAILED');
  });

  it("answers 404 for another tenant's members (on another shard and on the same one)", async () => {
    const mine = await createTenant();
    for (const other of await otherTenants(mine.id)) expectError(await portalCall(mine.owner, 'GET', membersPath(other.id)), 404, 'NOT_FOUND');
    expectError(await portalCall(mine.owner, 'GET', membersPath('ten_missing')), 404, 'NOT_FOUND');
  });
});

describe('POST /tenant/{tenantId}/members', () => {
  it('invites an unknown email (status invited, no user yet), lowercasing it', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    const email = newIdentity('new').email;
    const member = expectOk(await portalCall(admin, 'POST', membersPath(tenant.id), { email: email.toUpperCase(), role: 'viewer' }), 201, memberSchema);
    expect(member).toMatchObject({ email, user_id: null, username: null, role: 'viewer', status: 'invited' });
  });

  it('links a person who already has an account at once, who then has access', async () => {
    const tenant = await createTenant();
    const person = await createPerson('existing');
    const member = expectOk(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: person.email, role: 'editor' }), 201, memberSchema);
    expect(member).toMatchObject({ user_id: person.accountId, email: person.email, role: 'editor', status: 'active' });
    expect(member.username).toEqual(expect.any(String));
    expectOk(await portalCall(person, 'GET', membersPath(tenant.id)), 200, memberPage);
  });

  it('answers 409 for a person who is already a member or already invited', async () => {
    const tenant = await createTenant();
    const editor = await addMember(tenant.id, 'editor');
    const body = expectError(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: editor.email, role: 'viewer' }), 409, 'CONFLICT');
    expect(body.errors).toEqual([{ path: 'email', message: body.message }]);
    const email = newIdentity('twice').email;
    expectOk(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email, role: 'viewer' }), 201, memberSchema);
    expectError(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: email.toUpperCase(), role: 'admin' }), 409, 'CONFLICT');
  });

  it('is refused (403) to editors and viewers', async () => {
    const tenant = await createTenant();
    for (const role of ['editor', 'viewer'] as const) {
      const caller = await addMember(tenant.id, role);
      expectError(await portalCall(caller, 'POST', membersPath(tenant.id), { email: newIdentity().email, role: 'viewer' }), 403, 'FORBIDDEN');
    }
  });

  it('lets only a super_admin grant super_admin', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    expectError(await portalCall(admin, 'POST', membersPath(tenant.id), { email: newIdentity().email, role: 'super_admin' }), 403, 'FORBIDDEN', /super_admin/);
    const member = expectOk(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: newIdentity().email, role: 'super_admin' }), 201, memberSchema);
    expect(member.role).toBe('super_admin');
  });

  it('validates the body strictly (422 per field)', async () => {
    const tenant = await createTenant();
    const res = await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: 'not-an-email', role: 'owner', extra: 1 });
    const body = expectError(res, 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path).sort()).toEqual(['email', 'extra', 'role']);
  });

  it("answers 404 when inviting into another tenant (on another shard and on the same one)", async () => {
    const mine = await createTenant();
    for (const other of await otherTenants(mine.id)) {
      expectError(await portalCall(mine.owner, 'POST', membersPath(other.id), { email: newIdentity().email, role: 'viewer' }), 404, 'NOT_FOUND');
    }
  });
});

describe('PATCH /tenant/{tenantId}/members/{userId}', () => {
  it("changes a member's role", async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    const editor = await addMember(tenant.id, 'editor');
    const member = expectOk(await portalCall(admin, 'PATCH', memberPath(tenant.id, editor.accountId), { role: 'viewer' }), 200, memberSchema);
    expect(member).toMatchObject({ user_id: editor.accountId, role: 'viewer', status: 'active' });
    expect((await listAll(tenant)).find((m) => m.user_id === editor.accountId)?.role).toBe('viewer');
  });

  it('changes the role of an invitation addressed by its membership id', async () => {
    const tenant = await createTenant();
    const invited = expectOk(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: newIdentity().email, role: 'viewer' }), 201, memberSchema);
    const member = expectOk(await portalCall(tenant.owner, 'PATCH', memberPath(tenant.id, invited.id), { role: 'admin' }), 200, memberSchema);
    expect(member).toMatchObject({ id: invited.id, role: 'admin', status: 'invited' });
  });

  it('is refused (403) to a member who may not manage members', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    const editor = await addMember(tenant.id, 'editor');
    expectError(await portalCall(editor, 'PATCH', memberPath(tenant.id, viewer.accountId), { role: 'editor' }), 403, 'FORBIDDEN');
  });

  it('answers 404 for an unknown user and for a member of another tenant (on another shard and on the same one)', async () => {
    const mine = await createTenant();
    expectError(await portalCall(mine.owner, 'PATCH', memberPath(mine.id, 'acc_missing'), { role: 'viewer' }), 404, 'NOT_FOUND');
    for (const other of await otherTenants(mine.id)) {
      const outsider = await addMember(other.id, 'editor');
      expectError(await portalCall(mine.owner, 'PATCH', memberPath(mine.id, outsider.accountId), { role: 'viewer' }), 404, 'NOT_FOUND');
      expectError(await portalCall(mine.owner, 'PATCH', memberPath(other.id, outsider.accountId), { role: 'viewer' }), 404, 'NOT_FOUND');
    }
  });

  it('refuses (400) a change that would leave no super_admin', async () => {
    const tenant = await createTenant();
    const res = await portalCall(tenant.owner, 'PATCH', memberPath(tenant.id, tenant.owner.accountId), { role: 'admin' });
    const body = expectError(res, 400, 'BAD_REQUEST', /at least one super_admin/);
    expect(body.errors[0]?.path).toBe('role');
  });

  it('lets only a super_admin change a super_admin or grant the role (403)', async () => {
    const tenant = await createTenant();
    const secondOwner = await addMember(tenant.id, 'super_admin');
    const admin = await addMember(tenant.id, 'admin');
    const editor = await addMember(tenant.id, 'editor');
    expectError(await portalCall(admin, 'PATCH', memberPath(tenant.id, secondOwner.accountId), { role: 'viewer' }), 403, 'FORBIDDEN');
    expectError(await portalCall(admin, 'PATCH', memberPath(tenant.id, editor.accountId), { role: 'super_admin' }), 403, 'FORBIDDEN');
    expectError(await portalCall(admin, 'PATCH', memberPath(tenant.id, admin.accountId), { role: 'super_admin' }), 403, 'FORBIDDEN');
    expectError(await portalCall(admin, 'PATCH', memberPath(tenant.id, secondOwner.accountId), { role: 'super_admin' }), 403, 'FORBIDDEN');
    const demoted = expectOk(await portalCall(tenant.owner, 'PATCH', memberPath(tenant.id, secondOwner.accountId), { role: 'admin' }), 200, memberSchema);
    expect(demoted.role).toBe('admin');
    // Now the owner is the last one again.
    expectError(await portalCall(tenant.owner, 'PATCH', memberPath(tenant.id, tenant.owner.accountId), { role: 'viewer' }), 400, 'BAD_REQUEST');
  });

  it('keeps a super_admin when the last two demote each other at the same time', async () => {
    const tenant = await createTenant();
    const secondOwner = await addMember(tenant.id, 'super_admin');
    // Both read "2 super_admins" before either update lands: only the guard in the UPDATE's WHERE can refuse.
    const { responses: results, held } = await race(
      [
        portalRequest(tenant.owner, 'PATCH', memberPath(tenant.id, secondOwner.accountId), { role: 'admin' }),
        portalRequest(secondOwner, 'PATCH', memberPath(tenant.id, tenant.owner.accountId), { role: 'admin' }),
      ],
      /update "memberships" set "role"/i,
    );
    expect(held).toBe(2);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(expectOk(results.find((r) => r.status === 200)!, 200, memberSchema).role).toBe('admin');
    expectError(results.find((r) => r.status !== 200)!, 400, 'BAD_REQUEST', /at least one super_admin/);
    expect((await listAll(tenant, secondOwner)).filter((m) => m.role === 'super_admin')).toHaveLength(1);
  });

  it('rejects an unknown role (422)', async () => {
    const tenant = await createTenant();
    const editor = await addMember(tenant.id, 'editor');
    const body = expectError(await portalCall(tenant.owner, 'PATCH', memberPath(tenant.id, editor.accountId), { role: 'owner' }), 422, 'VALIDATION_FAILED');
    expect(body.errors[0]?.path).toBe('role');
  });
});

describe('DELETE /tenant/{tenantId}/members/{userId}', () => {
  it('removes a member, who vanishes from the list and loses access at once', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    const editor = await addMember(tenant.id, 'editor');
    expectOk(await portalCall(editor, 'GET', membersPath(tenant.id)), 200, memberPage);

    const res = await portalCall(admin, 'DELETE', memberPath(tenant.id, editor.accountId));
    expectOk(res, 200, z.null());
    expect(res.body).toEqual({ success: true, data: null });
    expect((await listAll(tenant)).map((m) => m.user_id)).not.toContain(editor.accountId);
    expectError(await portalCall(editor, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND');
  });

  it('withdraws an invitation addressed by its membership id', async () => {
    const tenant = await createTenant();
    const invited = expectOk(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: newIdentity().email, role: 'viewer' }), 201, memberSchema);
    expectOk(await portalCall(tenant.owner, 'DELETE', memberPath(tenant.id, invited.id)), 200, z.null());
    expect((await listAll(tenant)).map((m) => m.id)).not.toContain(invited.id);
  });

  it('checks permission first: 403 even for a member that does not exist', async () => {
    const tenant = await createTenant();
    const editor = await addMember(tenant.id, 'editor');
    expectError(await portalCall(editor, 'DELETE', memberPath(tenant.id, 'acc_missing')), 403, 'FORBIDDEN');
    expectError(await portalCall(editor, 'DELETE', memberPath(tenant.id, tenant.owner.accountId)), 403, 'FORBIDDEN');
  });

  it('answers 404 for no such member, and for a member of another tenant (on another shard and on the same one)', async () => {
    const mine = await createTenant();
    expectError(await portalCall(mine.owner, 'DELETE', memberPath(mine.id, 'acc_missing')), 404, 'NOT_FOUND');
    for (const other of await otherTenants(mine.id)) {
      const outsider = await addMember(other.id, 'viewer');
      expectError(await portalCall(mine.owner, 'DELETE', memberPath(mine.id, outsider.accountId)), 404, 'NOT_FOUND');
      expectError(await portalCall(mine.owner, 'DELETE', memberPath(other.id, outsider.accountId)), 404, 'NOT_FOUND');
    }
  });

  it('refuses (400) removing your own account', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    expectError(await portalCall(admin, 'DELETE', memberPath(tenant.id, admin.accountId)), 400, 'BAD_REQUEST', /own account/);
    expectError(await portalCall(tenant.owner, 'DELETE', memberPath(tenant.id, tenant.owner.accountId)), 400, 'BAD_REQUEST', /own account/);
  });

  it('refuses (400) removing the last super_admin, before the admin-vs-super_admin 403', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    expectError(await portalCall(admin, 'DELETE', memberPath(tenant.id, tenant.owner.accountId)), 400, 'BAD_REQUEST', /at least one super_admin/);
  });

  it('refuses (403) an admin removing a super_admin; a super_admin may', async () => {
    const tenant = await createTenant();
    const secondOwner = await addMember(tenant.id, 'super_admin');
    const admin = await addMember(tenant.id, 'admin');
    expectError(await portalCall(admin, 'DELETE', memberPath(tenant.id, secondOwner.accountId)), 403, 'FORBIDDEN', /super_admin/);
    expectOk(await portalCall(tenant.owner, 'DELETE', memberPath(tenant.id, secondOwner.accountId)), 200, z.null());
    expectError(await portalCall(secondOwner, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND');
  });
});
