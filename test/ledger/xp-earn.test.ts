import { describe, expect, it } from 'vitest';
import { MAX_XP_AMOUNT } from '../../src/domain/ledger';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { expectError, expectOk } from '../support/http';
import { createCustomer, ledgerState } from '../support/ledger';
import { gatewayRequest, race } from '../support/race';
import { createTenant, createTestApiKey, gatewayCall, otherTenants, type TestApiKey } from '../support/world';

const XP = '/api/v1/gateway/xp';

async function setup() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  return { tenant, key };
}

const earn = (key: TestApiKey, body: unknown) => gatewayCall(key, 'POST', XP, { body });

describe('POST /gateway/xp', () => {
  it('credits earned XP and answers 201 with the internal transaction', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const res = await earn(key, { user_id: userId, type: 'xp_earn', amount: '150', notes: 'order 1', metadata: { order_id: 'o1' } });
    const data = expectOk(res, 201, internalTransactionSchema);
    expect(data).toMatchObject({
      tenant_id: tenant.id,
      user_id: userId,
      type: 'xp_earn',
      amount: '150',
      status: 'completed',
      notes: 'order 1',
      metadata: { order_id: 'o1' },
      reward: null,
      onchain_asset: null,
      redemption_id: null,
      onchain_asset_id: null,
    });
    expect(data).not.toHaveProperty('tenant');
    expect(data).not.toHaveProperty('user');
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 150, lifetime: 150, ledgerSum: 150, entries: 1 });
  });

  it('accepts the xp_bonus type; notes and metadata are optional', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const data = expectOk(await earn(key, { user_id: userId, type: 'xp_bonus', amount: '25' }), 201, internalTransactionSchema);
    expect(data).toMatchObject({ type: 'xp_bonus', amount: '25', notes: null, metadata: null });
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 25, lifetime: 25 });
  });

  it('lets a reinstated customer earn', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id, { status: 'reinstated' });
    expectOk(await earn(key, { user_id: userId, type: 'xp_earn', amount: '10' }), 201, internalTransactionSchema);
  });

  it.each(['suspended', 'pending'] as const)('refuses a %s customer with 409 CUSTOMER_NOT_ACTIVE and writes nothing', async (status) => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id, { status });
    const body = expectError(await earn(key, { user_id: userId, type: 'xp_earn', amount: '10' }), 409, 'CUSTOMER_NOT_ACTIVE', new RegExp(status));
    expect(body.errors[0]?.path).toBe('user_id');
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 0, lifetime: 0, ledgerSum: 0, entries: 0 });
  });

  it('answers 404 for an unknown customer', async () => {
    const { key } = await setup();
    const body = expectError(await earn(key, { user_id: 'cus_missing', type: 'xp_earn', amount: '10' }), 404, 'NOT_FOUND', 'Customer not found');
    expect(body.errors[0]?.path).toBe('user_id');
  });

  it("answers 404 for another tenant's customer and leaves its balance alone (on another shard and on the same one)", async () => {
    const { tenant, key } = await setup();
    for (const other of await otherTenants(tenant.id)) {
      const userId = await createCustomer(other.id);
      expectError(await earn(key, { user_id: userId, type: 'xp_earn', amount: '10' }), 404, 'NOT_FOUND');
      expect(await ledgerState(other.id, userId)).toMatchObject({ balance: 0, entries: 0 });
    }
  });

  it.each([
    ['a fractional number', 1.5],
    ['a fractional string', '1.5'],
    ['a non-numeric string', 'ten'],
    ['an exponent string', '1e3'],
    ['a blank string', ''],
    ['zero', 0],
    ['a negative amount', '-5'],
    ['an amount over the maximum', String(MAX_XP_AMOUNT + 1)],
    ['a boolean', true],
    ['a JSON integer (amounts are strings)', 25],
    ['a leading zero', '025'],
  ])('rejects %s as amount with 422 on the amount field', async (_, amount) => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const body = expectError(await earn(key, { user_id: userId, type: 'xp_earn', amount }), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path)).toContain('amount');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, entries: 0 });
  });

  it('accepts the maximum amount', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    expectOk(await earn(key, { user_id: userId, type: 'xp_earn', amount: String(MAX_XP_AMOUNT) }), 201, internalTransactionSchema);
  });

  it('tells a client sending a JSON number to send a string', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const body = expectError(await earn(key, { user_id: userId, type: 'xp_earn', amount: 150 }), 422, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ path: 'amount', message: 'Send the amount as a string, e.g. "150"' }]);
  });

  it.each([['a string', 'order 7'], ['an array', [1, 'two']], ['a number', 3], ['null', null], ['an object', { nested: { deep: true } }]])(
    'stores %s as metadata and answers it as sent (metadata is any JSON)',
    async (_, metadata) => {
      const { tenant, key } = await setup();
      const userId = await createCustomer(tenant.id);
      const data = expectOk(await earn(key, { user_id: userId, type: 'xp_earn', amount: '10', metadata }), 201, internalTransactionSchema);
      expect(data.metadata).toEqual(metadata);
    },
  );

  it('rejects other types, unknown fields and a missing user_id with 422', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const cases: [unknown, string][] = [
      [{ user_id: userId, type: 'xp_admin_adjust', amount: '10' }, 'type'],
      [{ user_id: userId, type: 'xp_redeem', amount: '10' }, 'type'],
      [{ user_id: userId, type: 'xp_earn', amount: '10', status: 'pending' }, 'status'],
      [{ type: 'xp_earn', amount: '10' }, 'user_id'],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await earn(key, body), 422, 'VALIDATION_FAILED');
      expect(error.errors.map((e) => e.path)).toContain(path);
    }
  });

  it('loses no update under 40 parallel earns: the balance is the sum and the ledger matches it', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const amounts = Array.from({ length: 40 }, (_, i) => i + 1);
    const requests = await Promise.all(amounts.map((amount) => gatewayRequest(key, 'POST', XP, { body: { user_id: userId, type: 'xp_earn', amount: String(amount) } })));
    // Every earn has read whatever it reads before any ledger write lands: a read-modify-write would lose updates.
    const { responses, held } = await race(requests, /insert into "internal_transactions"/i);
    expect(held).toBe(40);
    expect(responses).toHaveLength(40);
    for (const res of responses) expectOk(res, 201, internalTransactionSchema);
    const total = amounts.reduce((a, b) => a + b, 0);
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: total, lifetime: total, ledgerSum: total, entries: 40 });
  });
});
