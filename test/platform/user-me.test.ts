import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { currentAccountSchema } from '../../src/schemas/account';
import { tenantSchema } from '../../src/schemas/tenant';
import { call, expectError, expectOk } from '../support/http';
import { newIdentity, portalToken } from '../support/tokens';
import { addMember, createPerson, createTenant, portalCall } from '../support/world';

describe('GET /user/me', () => {
  it('returns the account with no memberships', async () => {
    const person = await createPerson();
    const me = expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema);
    expect(me).toMatchObject({ id: person.accountId, email: person.email, memberships: [] });
  });

  it('lists the tenants the account belongs to, with its role in each', async () => {
    const tenant = await createTenant();
    const person = await addMember(tenant.id, 'editor');
    const own = expectOk(await portalCall(person, 'POST', '/api/v1/tenants', { name: 'Zeta Shop', slug: `zeta-${Date.now().toString(36)}` }), 201, tenantSchema);
    const me = expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema);
    expect(me.memberships).toHaveLength(2);
    expect(me.memberships).toContainEqual({ tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug }, role: 'editor' });
    expect(me.memberships).toContainEqual({ tenant: { id: own.id, name: own.name, slug: own.slug }, role: 'super_admin' });
  });

  it('does not list a tenant the account was removed from', async () => {
    const tenant = await createTenant();
    const person = await addMember(tenant.id, 'viewer');
    expectOk(await portalCall(tenant.owner, 'DELETE', `/api/v1/tenant/${tenant.id}/members/${person.accountId}`), 200, z.null());
    const me = expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema);
    expect(me.memberships).toEqual([]);
  });

  it('shows the email of the latest sign-in (trimmed, lowercased) and keeps the first username', async () => {
    const person = await createPerson();
    const before = expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema);
    const newEmail = newIdentity('moved').email;
    const moved = { token: await portalToken({ sub: person.sub, email: ` ${newEmail.toUpperCase()} `, username: 'someone-else' }) };
    const after = expectOk(await portalCall(moved, 'GET', '/api/v1/user/me'), 200, currentAccountSchema);
    expect(after).toEqual({ ...before, email: newEmail });
  });

  it('requires a token (401)', async () => {
    expectError(await call('GET', '/api/v1/user/me'), 401, 'UNAUTHENTICATED');
  });
});
