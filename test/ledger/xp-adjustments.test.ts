import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { expectError, expectOk } from '../support/http';
import { createCustomer, ledgerState } from '../support/ledger';
import { portalRequest, race } from '../support/race';
import { addMember, createPerson, createTenant, otherTenants, portalCall, type TestMember } from '../support/world';

const adjustPath = (tenantId: string, userId: string) => `/api/v1/tenant/${tenantId}/customers/${userId}/xp-adjustments`;
const adjust = (member: { token: string }, tenantId: string, userId: string, body: unknown) =>
  portalCall(member, 'POST', adjustPath(tenantId, userId), body);

describe('POST /tenant/{tenantId}/customers/{userId}/xp-adjustments', () => {
  it('adds XP as an xp_admin_adjust transaction that counts towards lifetime XP', async () => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id);
    const data = expectOk(await adjust(tenant.owner, tenant.id, userId, { amount: '200', notes: 'goodwill' }), 201, internalTransactionSchema);
    expect(data).toMatchObject({ tenant_id: tenant.id, user_id: userId, type: 'xp_admin_adjust', amount: '200', status: 'completed', notes: 'goodwill' });
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 200, lifetime: 200, ledgerSum: 200, entries: 1 });
  });

  it('removes XP with a negative amount without touching lifetime XP', async () => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id, { xp: 100 });
    const first = expectOk(await adjust(tenant.owner, tenant.id, userId, { amount: '-20', notes: 'correction' }), 201, internalTransactionSchema);
    expect(first.amount).toBe('-20');
    expectOk(await adjust(tenant.owner, tenant.id, userId, { amount: '-30', notes: 'correction' }), 201, internalTransactionSchema);
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 50, lifetime: 100, ledgerSum: 50, entries: 3 });
  });

  it('refuses to take the balance below zero with 409 INSUFFICIENT_XP and writes nothing', async () => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id, { xp: 10 });
    const body = expectError(await adjust(tenant.owner, tenant.id, userId, { amount: '-11', notes: 'too much' }), 409, 'INSUFFICIENT_XP');
    expect(body.errors[0]?.path).toBe('amount');
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 10, lifetime: 10, ledgerSum: 10, entries: 1 });
    // Exactly down to zero is allowed.
    expectOk(await adjust(tenant.owner, tenant.id, userId, { amount: '-10', notes: 'all of it' }), 201, internalTransactionSchema);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, ledgerSum: 0 });
  });

  it('is allowed for a suspended customer (staff may claw back XP)', async () => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id, { status: 'suspended', xp: 40 });
    expectOk(await adjust(tenant.owner, tenant.id, userId, { amount: '-40', notes: 'fraud' }), 201, internalTransactionSchema);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0 });
  });

  it.each([
    [{ amount: '0', notes: 'x' }, 'amount'],
    [{ amount: '2.5', notes: 'x' }, 'amount'],
    [{ amount: 'abc', notes: 'x' }, 'amount'],
    [{ amount: '-1000000001', notes: 'x' }, 'amount'],
    [{ amount: -30, notes: 'x' }, 'amount'],
    [{ amount: '-030', notes: 'x' }, 'amount'],
    [{ amount: '10' }, 'notes'],
    [{ amount: '10', notes: '   ' }, 'notes'],
    [{ amount: '10', notes: 'x', type: 'xp_earn' }, 'type'],
  ])('rejects %j with 422', async (body, path) => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id);
    const error = expectError(await adjust(tenant.owner, tenant.id, userId, body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((e) => e.path)).toContain(path);
  });

  it.each(['admin', 'editor'] as Role[])('lets an %s adjust', async (role) => {
    const tenant = await createTenant();
    const member = await addMember(tenant.id, role);
    const userId = await createCustomer(tenant.id);
    expectOk(await adjust(member, tenant.id, userId, { amount: '5', notes: 'ok' }), 201, internalTransactionSchema);
  });

  it('forbids a viewer with 403 and writes nothing', async () => {
    const tenant = await createTenant();
    const viewer: TestMember = await addMember(tenant.id, 'viewer');
    const userId = await createCustomer(tenant.id);
    expectError(await adjust(viewer, tenant.id, userId, { amount: '5', notes: 'no' }), 403, 'FORBIDDEN');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, entries: 0 });
  });

  it('answers 404 for an unknown customer', async () => {
    const tenant = await createTenant();
    expectError(await adjust(tenant.owner, tenant.id, 'cus_missing', { amount: '5', notes: 'x' }), 404, 'NOT_FOUND', 'Customer not found');
  });

  it("answers 404 for another tenant's customer, and for a tenant the caller is not a member of (on another shard and on the same one)", async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) {
      const theirs = await createCustomer(other.id, { xp: 50 });
      expectError(await adjust(tenant.owner, tenant.id, theirs, { amount: '-50', notes: 'x' }), 404, 'NOT_FOUND');
      expectError(await adjust(tenant.owner, other.id, theirs, { amount: '-50', notes: 'x' }), 404, 'NOT_FOUND');
      expect(await ledgerState(other.id, theirs)).toMatchObject({ balance: 50, entries: 1 });
    }
  });

  it('answers 401 for an invalid token and 404 for a person who is not a member', async () => {
    const tenant = await createTenant();
    const outsider = await createPerson();
    const userId = await createCustomer(tenant.id);
    expectError(await adjust({ token: 'not-a-jwt' }, tenant.id, userId, { amount: '5', notes: 'x' }), 401, 'UNAUTHENTICATED');
    expectError(await adjust(outsider, tenant.id, userId, { amount: '5', notes: 'x' }), 404, 'NOT_FOUND');
  });

  it('lets exactly N of many concurrent negative adjustments through: balance 0, ledger matches', async () => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id, { xp: 100 });
    const requests = Array.from({ length: 16 }, () => portalRequest(tenant.owner, 'POST', adjustPath(tenant.id, userId), { amount: '-10', notes: 'race' }));
    // All 16 ledger batches reach D1 together: only the balance CHECK can refuse the overdraft.
    const { responses, held } = await race(requests, /insert into "internal_transactions"/i);
    expect(held).toBe(16);
    const succeeded = responses.filter((res) => res.status === 201);
    const refused = responses.filter((res) => res.status !== 201);
    expect(succeeded).toHaveLength(10);
    for (const res of succeeded) expectOk(res, 201, internalTransactionSchema);
    expect(refused).toHaveLength(6);
    for (const res of refused) expectError(res, 409, 'INSUFFICIENT_XP');
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 0, lifetime: 100, ledgerSum: 0, entries: 11 });
  });
});
