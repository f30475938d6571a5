import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, customerStatuses, type CustomerStatus } from '../../src/db/schema';
import { customerStatusMoves } from '../../src/domain/customer-status';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { addMember, createPerson, createTenant, createTestApiKey, db, otherTenants, portalCall, type TestTenant } from '../support/world';

const customerPage = pageSchema(customerSchema);

/** `given`: a tenant to set up (from `otherTenants`: beside another on its shard, only tenant filters keep their rows apart). */
async function tenantWithCustomer(body: Record<string, unknown> = {}, given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  const key = await createTestApiKey(tenant.id);
  const customer = await createCustomerViaApi(key, body);
  return { tenant, key, customer, base: `/api/v1/tenant/${tenant.id}/customers` };
}

async function setStatus(tenantId: string, id: string, status: CustomerStatus) {
  await db(tenantId).update(customers).set({ status }).where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)));
}

describe('GET /tenant/{t}/customers', () => {
  it('lists the tenant\'s customers with the gateway\'s filters, for any role (others\' on another shard and on the same one never)', async () => {
    const { tenant, key, customer, base } = await tenantWithCustomer({ external_id: 'jane', email: 'jane@example.com' });
    await createCustomerViaApi(key, { external_id: 'john' });
    const viewer = await addMember(tenant.id, 'viewer');

    const others = [];
    for (const t of await otherTenants(tenant.id)) others.push(await tenantWithCustomer({ external_id: 'jane', email: 'jane@example.com' }, t));
    const all = expectOk(await portalCall(viewer, 'GET', base), 200, customerPage);
    expect(all.total_count).toBe(2);
    for (const other of others) expect(all.items.map((c) => c.id)).not.toContain(other.customer.id);
    // The other tenants' 'jane' has the same external_id and email: never listed here.
    const byEmail = expectOk(await portalCall(viewer, 'GET', `${base}?email=Jane%40Example.com`), 200, customerPage);
    expect(byEmail.items).toEqual([customer]);
    expect(expectOk(await portalCall(viewer, 'GET', `${base}?external_id=jane`), 200, customerPage).items).toEqual([customer]);
    const byExternal = expectOk(await portalCall(viewer, 'GET', `${base}?external_id=john&status=active`), 200, customerPage);
    expect(byExternal.items.map((c) => c.external_id)).toEqual(['john']);
  });

  it('pages and rejects out-of-range paging (422)', async () => {
    const { tenant, key, base } = await tenantWithCustomer();
    await createCustomerViaApi(key);
    await createCustomerViaApi(key);
    const page = expectOk(await portalCall(tenant.owner, 'GET', `${base}?limit=2&page=2`), 200, customerPage);
    expect(page).toMatchObject({ total_count: 3, page: 2, limit: 2, total_pages: 2, has_next_page: false });
    expect(page.items).toHaveLength(1);
    for (const query of ['limit=0', 'limit=101', 'page=0']) {
      expectError(await portalCall(tenant.owner, 'GET', `${base}?${query}`), 422, 'VALIDATION_FAILED');
    }
  });

  it('answers 404 for a tenant the caller is not a member of', async () => {
    const { base } = await tenantWithCustomer();
    const outsider = await createPerson();
    expectError(await portalCall(outsider, 'GET', base), 404, 'NOT_FOUND', 'Tenant not found');
  });
});

describe('GET /tenant/{t}/customers/{userId}', () => {
  it('returns the customer as the gateway does', async () => {
    const { tenant, customer, base } = await tenantWithCustomer({ country_code: 'NL' });
    expect(expectOk(await portalCall(tenant.owner, 'GET', `${base}/${customer.id}`), 200, customerSchema)).toEqual(customer);
  });

  it('answers 404 for another tenant\'s customer (on another shard and on the same one) and for an unknown id', async () => {
    const mine = await tenantWithCustomer();
    for (const t of await otherTenants(mine.tenant.id)) {
      const theirs = await tenantWithCustomer({}, t);
      expectError(await portalCall(mine.tenant.owner, 'GET', `${mine.base}/${theirs.customer.id}`), 404, 'NOT_FOUND', 'Customer not found');
    }
    expectError(await portalCall(mine.tenant.owner, 'GET', `${mine.base}/cus_missing`), 404, 'NOT_FOUND', 'Customer not found');
  });
});

describe('PATCH /tenant/{t}/customers/{userId}', () => {
  const moves = customerStatuses.flatMap((from) => customerStatuses.map((to) => ({ from, to, allowed: customerStatusMoves[from].includes(to) })));

  it('allows exactly the four documented moves', () => {
    expect(moves.filter((move) => move.allowed).map((move) => `${move.from}->${move.to}`)).toEqual([
      'pending->active',
      'active->suspended',
      'suspended->reinstated',
      'reinstated->suspended',
    ]);
  });

  it.each(moves)('$from -> $to (allowed: $allowed)', async ({ from, to, allowed }) => {
    const { tenant, customer, base } = await tenantWithCustomer();
    await setStatus(tenant.id, customer.id, from);
    const res = await portalCall(tenant.owner, 'PATCH', `${base}/${customer.id}`, { status: to });
    if (allowed) {
      expect(expectOk(res, 200, successFlagSchema)).toEqual({ success: true });
    } else {
      const error = expectError(res, 409, 'INVALID_STATUS_TRANSITION', `Customer status cannot move from ${from} to ${to}`);
      expect(error.errors).toEqual([{ path: 'status', message: error.message }]);
    }
    const after = expectOk(await portalCall(tenant.owner, 'GET', `${base}/${customer.id}`), 200, customerSchema);
    expect(after.status).toBe(allowed ? to : from);
  });

  it('answers 409 CONFLICT to the loser of two simultaneous moves from the same state (nothing lost)', async () => {
    const { tenant, customer, base } = await tenantWithCustomer();
    // Both read `active` (an allowed move for each) before either write lands.
    const { responses, held } = await race(
      [portalRequest(tenant.owner, 'PATCH', `${base}/${customer.id}`, { status: 'suspended' }), portalRequest(tenant.owner, 'PATCH', `${base}/${customer.id}`, { status: 'suspended' })],
      /update "customers" set "status"/i,
    );
    expect(held).toBe(2);
    expect(responses.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(expectOk(responses.find((res) => res.status === 200)!, 200, successFlagSchema)).toEqual({ success: true });
    const error = expectError(responses.find((res) => res.status === 409)!, 409, 'CONFLICT', /changed by another request/);
    expect(error.errors).toEqual([{ path: 'status', message: error.message }]);
    expect(expectOk(await portalCall(tenant.owner, 'GET', `${base}/${customer.id}`), 200, customerSchema).status).toBe('suspended');
  });

  it('lets an editor change the status and forbids a viewer (403)', async () => {
    const { tenant, customer, base } = await tenantWithCustomer();
    const viewer = await addMember(tenant.id, 'viewer');
    const editor = await addMember(tenant.id, 'editor');
    expectError(await portalCall(viewer, 'PATCH', `${base}/${customer.id}`, { status: 'suspended' }), 403, 'FORBIDDEN');
    expectOk(await portalCall(editor, 'PATCH', `${base}/${customer.id}`, { status: 'suspended' }), 200, successFlagSchema);
  });

  it('answers 404 for an unknown customer and for another tenant\'s customer (on another shard and on the same one)', async () => {
    const mine = await tenantWithCustomer();
    expectError(await portalCall(mine.tenant.owner, 'PATCH', `${mine.base}/cus_missing`, { status: 'suspended' }), 404, 'NOT_FOUND');
    for (const t of await otherTenants(mine.tenant.id)) {
      const theirs = await tenantWithCustomer({}, t);
      expectError(await portalCall(mine.tenant.owner, 'PATCH', `${mine.base}/${theirs.customer.id}`, { status: 'suspended' }), 404, 'NOT_FOUND');
      const untouched = expectOk(await portalCall(theirs.tenant.owner, 'GET', `${theirs.base}/${theirs.customer.id}`), 200, customerSchema);
      expect(untouched.status).toBe('active');
    }
  });

  it.each([
    ['an unknown status', { status: 'deleted' }, 'status'],
    ['a missing status', {}, 'status'],
    ['an unknown field', { status: 'suspended', email: 'x@example.com' }, 'email'],
  ])('rejects %s (422)', async (_label, body, path) => {
    const { tenant, customer, base } = await tenantWithCustomer();
    const error = expectError(await portalCall(tenant.owner, 'PATCH', `${base}/${customer.id}`, body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toContain(path);
  });
});
