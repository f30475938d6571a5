import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client';
import { directoryTenants, tenants } from '../../src/db/schema';
import { currentAccountSchema } from '../../src/schemas/account';
import { tenantSchema } from '../../src/schemas/tenant';
import { pageSchema } from '../../src/lib/paging';
import { memberSchema } from '../../src/schemas/member';
import { call, expectError, expectOk } from '../support/http';
import { createPerson, createTenant, directory, everyShard, portalCall } from '../support/world';

let counter = 0;
/** A slug no other test (or earlier run in this file's storage) has taken. */
function freshSlug(label = 'shop') {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}`;
}

describe('POST /tenants', () => {
  it('creates the tenant (201) and makes the caller its active super_admin', async () => {
    const person = await createPerson();
    const slug = freshSlug();
    const tenant = expectOk(await portalCall(person, 'POST', '/api/v1/tenants', { name: '  Acme Coffee ', slug }), 201, tenantSchema);
    expect(tenant).toMatchObject({ name: 'Acme Coffee', slug });
    expect(tenant.id).toMatch(/^ten_/);
    expect(Date.parse(tenant.created_at)).not.toBeNaN();

    const me = expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema);
    expect(me.memberships).toEqual([{ tenant: { id: tenant.id, name: 'Acme Coffee', slug }, role: 'super_admin' }]);
    const members = expectOk(await portalCall(person, 'GET', `/api/v1/tenant/${tenant.id}/members`), 200, pageSchema(memberSchema));
    expect(members.items).toEqual([expect.objectContaining({ user_id: person.accountId, role: 'super_admin', status: 'active' })]);
  });

  it('answers 409 for a taken slug, and creates nothing', async () => {
    const existing = await createTenant();
    const person = await createPerson();
    const body = expectError(await portalCall(person, 'POST', '/api/v1/tenants', { name: 'Copy', slug: existing.slug }), 409, 'CONFLICT');
    expect(body.errors).toEqual([{ path: 'slug', message: body.message }]);
    const me = expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema);
    expect(me.memberships).toEqual([]);
  });

  it.each([
    ['uppercase', 'Acme-Coffee'],
    ['too short', 'ab'],
    ['too long', 'a'.repeat(64)],
    ['leading hyphen', '-acme'],
    ['double hyphen', 'acme--coffee'],
    ['space', 'acme coffee'],
  ])('rejects a slug with %s (422 on slug)', async (_case, slug) => {
    const person = await createPerson();
    const body = expectError(await portalCall(person, 'POST', '/api/v1/tenants', { name: 'Acme', slug }), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path)).toEqual(['slug']);
  });

  it('accepts a 63-character slug', async () => {
    const person = await createPerson();
    const slug = `${freshSlug('x')}-`.padEnd(63, 'z');
    expectOk(await portalCall(person, 'POST', '/api/v1/tenants', { name: 'Long', slug }), 201, tenantSchema);
  });

  it('rejects a missing name and unknown fields (422 per field)', async () => {
    const person = await createPerson();
    const body = expectError(await portalCall(person, 'POST', '/api/v1/tenants', { slug: freshSlug(), plan: 'pro' }), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path).sort()).toEqual(['name', 'plan']);
  });

  it('requires a token (401)', async () => {
    expectError(await call('POST', '/api/v1/tenants', { body: { name: 'Acme', slug: freshSlug() } }), 401, 'UNAUTHENTICATED');
  });

  it('is refused (403) when tenant sign-up is closed, whatever the body', async () => {
    const person = await createPerson();
    const previous = env.TENANT_SIGNUP;
    env.TENANT_SIGNUP = 'closed';
    try {
      expectError(await portalCall(person, 'POST', '/api/v1/tenants', { name: 'Acme', slug: freshSlug() }), 403, 'FORBIDDEN', /closed/);
      expectError(await portalCall(person, 'POST', '/api/v1/tenants', { bogus: true }), 403, 'FORBIDDEN');
      // A mistyped setting fails closed too: the environment schema answers 503 naming it.
      env.TENANT_SIGNUP = 'Open ';
      const slug = freshSlug();
      expectError(await portalCall(person, 'POST', '/api/v1/tenants', { name: 'Acme', slug }), 503, 'SERVICE_MISCONFIGURED', /^TENANT_SIGNUP /);
      // Nowhere: in no shard (placement could have chosen any) and not in the directory.
      const onShards = await Promise.all(everyShard().map((shard) => createDatabase(shard.d1).select().from(tenants).where(eq(tenants.slug, slug))));
      expect(onShards.flat()).toEqual([]);
      expect(await directory().select().from(directoryTenants).where(eq(directoryTenants.slug, slug))).toEqual([]);
    } finally {
      env.TENANT_SIGNUP = previous;
    }
  });
});
