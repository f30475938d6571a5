import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { internalTransactions, pointLots } from '../../src/db/schema';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { reversalSchema } from '../../src/schemas/reversal';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { createCustomer, ledgerState } from '../support/ledger';
import { DAY_MS, debit, earn, lotRow, lotsOf, pointsOf, pointsWorld, runLotJobsAt, setPoints, transactionOf, type PointsWorld } from '../support/points';
import { envWithShard, gatewayRequest, interleavedD1, portalRequest, race, requestTask } from '../support/race';
import { createTestApiKey, db, gatewayCall, otherTenants, shardD1 } from '../support/world';

/** POST /gateway/internal-transactions/{id}/reverse (CONTRACT.md, Point lifecycle: returns). */

const path = (id: string) => `/api/v1/gateway/internal-transactions/${id}/reverse`;

function reverse(w: PointsWorld, id: string, body: Record<string, unknown> = {}, idempotencyKey?: string | null): Promise<JsonResponse> {
  return gatewayCall(w.key, 'POST', path(id), { body, idempotencyKey });
}

/** A 201 whose body is checked against `reversalSchema` by `.parse` as well as the envelope. */
function reversal(res: JsonResponse) {
  return reversalSchema.parse(expectOk(res, 201, reversalSchema));
}

async function balanceIsLedger(w: PointsWorld) {
  const state = await ledgerState(w.tenant.id, w.userId);
  expect(state.balance).toBe(state.ledgerSum);
}

describe('reversing an active credit', () => {
  it('whole: an xp_reversal of the credit, the balance drops, the lot counts it reversed; lifetime XP stays', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    const result = reversal(await reverse(w, credit.id, { reason: 'order returned' }));
    expect(result).toMatchObject({ reversed: '100', unrecovered: '0' });
    expect(result.internal_transaction).toMatchObject({
      type: 'xp_reversal',
      amount: '-100',
      status: 'completed',
      user_id: w.userId,
      notes: 'order returned',
      metadata: { reversed_transaction_id: credit.id },
    });
    expect(await transactionOf(w, result.internal_transaction!.id)).toMatchObject({ type: 'xp_reversal', amount: '-100' });
    expect(await pointsOf(w)).toEqual({ xp_balance: '0', pending_xp: '0', lifetime_xp: '100', expiring: [] });
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ reversed: 100, remaining: 0, status: 'spent' });
    expect((await transactionOf(w, credit.id)).status).toBe('completed');
    await balanceIsLedger(w);
  });

  it('in part twice, then a third beyond what is left is 409 REVERSAL_EXCEEDS_CREDIT (path amount); what is left still reverses, then nothing', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    expect(reversal(await reverse(w, credit.id, { amount: '30' }))).toMatchObject({ reversed: '30', unrecovered: '0', internal_transaction: { amount: '-30' } });
    expect(reversal(await reverse(w, credit.id, { amount: '50' }))).toMatchObject({ reversed: '50', internal_transaction: { amount: '-50' } });
    const refused = expectError(await reverse(w, credit.id, { amount: '21' }), 409, 'REVERSAL_EXCEEDS_CREDIT', 'Only 20 XP of this credit of 100 is left to reverse');
    expect(refused.errors.map((e) => e.path)).toEqual(['amount']);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '20' });
    expect(reversal(await reverse(w, credit.id))).toMatchObject({ reversed: '20', internal_transaction: { amount: '-20' } });
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ reversed: 100, remaining: 0 });
    // Reversed in full: nothing is left, with or without an amount.
    expectError(await reverse(w, credit.id), 409, 'REVERSAL_EXCEEDS_CREDIT');
    expectError(await reverse(w, credit.id, { amount: '1' }), 409, 'REVERSAL_EXCEEDS_CREDIT', 'Only 0 XP of this credit of 100 is left to reverse');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
    await balanceIsLedger(w);
  });

  it('takes its own lot first, although another lot expires earlier', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    await setPoints(w, { validity: 'P1D' });
    const other = await earn(w, 50);
    reversal(await reverse(w, credit.id, { amount: '60' }));
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ remaining: 40, reversed: 60, status: 'active' });
    expect(await lotRow(w.tenant.id, other.id)).toMatchObject({ remaining: 50, reversed: 0, status: 'active' });
  });

  it('after the customer spent part of it: the lot, then the other points, never below zero; the rest is unrecovered', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    const other = await earn(w, 50);
    await debit(w, 80); // 80 of the older credit's lot
    const result = reversal(await reverse(w, credit.id));
    expect(result).toMatchObject({ reversed: '70', unrecovered: '30', internal_transaction: { amount: '-70', status: 'completed' } });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ remaining: 0, reversed: 100, status: 'spent' });
    expect(await lotRow(w.tenant.id, other.id)).toMatchObject({ remaining: 0, status: 'spent' });
    // Counted reversed in full: nothing more to take back.
    expectError(await reverse(w, credit.id, { amount: '1' }), 409, 'REVERSAL_EXCEEDS_CREDIT');
    await balanceIsLedger(w);
  });

  it('with a zero balance: 201 with nothing taken back (internal_transaction null), all unrecovered', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 40);
    await debit(w, 40);
    expect(reversal(await reverse(w, credit.id))).toEqual({ internal_transaction: null, reversed: '0', unrecovered: '40' });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
  });
});

describe('reversing a pending credit', () => {
  it('whole: the credit is canceled (failed), its lot reversed, and activation later moves nothing', async () => {
    const w = await pointsWorld();
    await setPoints(w, { pending_period: 'P1D' });
    const credit = await earn(w, 100);
    const result = reversal(await reverse(w, credit.id));
    expect(result).toMatchObject({ reversed: '100', unrecovered: '0', internal_transaction: { id: credit.id, type: 'xp_earn', status: 'failed' } });
    expect(await lotsOf(w)).toMatchObject([{ internal_transaction_id: credit.id, status: 'reversed', remaining: '0' }]);
    expect(await pointsOf(w)).toEqual({ xp_balance: '0', pending_xp: '0', lifetime_xp: '0', expiring: [] });
    await runLotJobsAt(Date.now() + 2 * DAY_MS);
    expect((await transactionOf(w, credit.id)).status).toBe('failed');
    expect(await pointsOf(w)).toEqual({ xp_balance: '0', pending_xp: '0', lifetime_xp: '0', expiring: [] });
    expectError(await reverse(w, credit.id), 409, 'NOT_REVERSIBLE');
  });

  it('in part: a pending xp_reversal; at activation the balance moves by amount - reversed and the reversal completes', async () => {
    const w = await pointsWorld();
    await earn(w, 10);
    await setPoints(w, { pending_period: 'P1D' });
    const credit = await earn(w, 100);
    const result = reversal(await reverse(w, credit.id, { amount: '30' }));
    expect(result).toMatchObject({ reversed: '30', unrecovered: '0', internal_transaction: { type: 'xp_reversal', amount: '-30', status: 'pending', metadata: { reversed_transaction_id: credit.id } } });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '10', pending_xp: '70' });
    await runLotJobsAt(Date.now() + 2 * DAY_MS);
    expect((await transactionOf(w, credit.id)).status).toBe('completed');
    expect((await transactionOf(w, result.internal_transaction!.id)).status).toBe('completed');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '80', pending_xp: '0' });
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'active', remaining: 70, reversed: 30 });
    await balanceIsLedger(w);
    // What is left of it is an active credit now.
    expect(reversal(await reverse(w, credit.id))).toMatchObject({ reversed: '70', internal_transaction: { amount: '-70', status: 'completed' } });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '10' });
  });
});

describe('refusals', () => {
  it('409 NOT_REVERSIBLE for a debit and for a credit older than lots', async () => {
    const w = await pointsWorld();
    await earn(w, 50);
    const spend = await debit(w, 20);
    expectError(await reverse(w, spend.id), 409, 'NOT_REVERSIBLE');
    const seeded = await createCustomer(w.tenant.id, { xp: 30 });
    const [old] = await db(w.tenant.id).select().from(internalTransactions).where(and(eq(internalTransactions.tenantId, w.tenant.id), eq(internalTransactions.userId, seeded)));
    expectError(await reverse(w, old!.id), 409, 'NOT_REVERSIBLE');
  });

  it('409 CREDIT_SETTLING while the credit is minted onchain', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 50);
    await db(w.tenant.id).update(internalTransactions).set({ status: 'initialized' }).where(eq(internalTransactions.id, credit.id));
    await db(w.tenant.id).update(pointLots).set({ status: 'pending', remaining: 50 }).where(eq(pointLots.internalTransactionId, credit.id));
    expectError(await reverse(w, credit.id), 409, 'CREDIT_SETTLING');
  });

  it("404 for an unknown id and for another tenant's credit (on another shard and on the same one)", async () => {
    const w = await pointsWorld();
    expectError(await reverse(w, 'itx_missing'), 404, 'NOT_FOUND');
    for (const tenant of await otherTenants(w.tenant.id)) {
      const theirs: PointsWorld = { tenant, key: await createTestApiKey(tenant.id), userId: await createCustomer(tenant.id) };
      const credit = await earn(theirs, 50);
      expectError(await reverse(w, credit.id), 404, 'NOT_FOUND');
      expect(await pointsOf(theirs)).toMatchObject({ xp_balance: '50' });
    }
  });

  it('400 IDEMPOTENCY_KEY_REQUIRED without a key; a replay with the same key answers the same body and reverses once', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    expectError(await reverse(w, credit.id, { amount: '10' }, null), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    const first = await reverse(w, credit.id, { amount: '10' }, 'idem-reverse-1');
    const again = await reverse(w, credit.id, { amount: '10' }, 'idem-reverse-1');
    reversal(first);
    expect(reversal(again)).toEqual(reversal(first));
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '90' });
  });

  it.each([['"0"', '0'], ['a number', 5], ['"abc"', 'abc'], ['"-5"', '-5']])('422 VALIDATION_FAILED naming amount for %s', async (_name, amount) => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    const body = expectError(await reverse(w, credit.id, { amount }), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path)).toEqual(['amount']);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '100' });
  });

  it('422 VALIDATION_FAILED naming reason over 500 characters, and naming an unknown field', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    const long = expectError(await reverse(w, credit.id, { reason: 'x'.repeat(501) }), 422, 'VALIDATION_FAILED');
    expect(long.errors.map((e) => e.path)).toEqual(['reason']);
    expectError(await reverse(w, credit.id, { amount: '1', refund: true }), 422, 'VALIDATION_FAILED');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '100' });
  });
});

describe('at once', () => {
  it('a debit lands between the reversal’s read and its write: the reversal decides again and never takes the balance below zero', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    const requests = [
      portalRequest(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/xp-adjustments`, { amount: '-100', notes: 'spent' }),
      await gatewayRequest(w.key, 'POST', path(credit.id), { body: {} }),
    ];
    const { responses, held } = await race(requests, /insert into "internal_transactions"|point_lot_guard|update "point_lots" set "reversed"/, { inOrder: true });
    expect(held).toBe(2);
    expectOk(responses[0]!, 201, internalTransactionSchema);
    expect(reversal(responses[1]!)).toEqual({ internal_transaction: null, reversed: '0', unrecovered: '100' });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
    await balanceIsLedger(w);
  });
});

describe('a credit that keeps changing', () => {
  it('a debit landing before every one of the reversal’s writes: decided again 5 times, then 409 CONFLICT, and nothing is reversed', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    await debit(w, 50);
    let debits = 0;
    // Before each write of the reversal (decided on the balance it read), the customer spends 1 XP more.
    const spendOne = async () => {
      debits += 1;
      const res = await requestTask(portalRequest(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/xp-adjustments`, { amount: '-1', notes: 'spent' }))();
      expectOk(res, 201, internalTransactionSchema);
    };
    const res = await requestTask(await gatewayRequest(w.key, 'POST', path(credit.id), { body: {} }))(envWithShard(w.tenant.id, interleavedD1(shardD1(w.tenant.id), /update "point_lots" set "reversed"/, spendOne)));
    expectError(res, 409, 'CONFLICT', /kept changing/);
    expect(debits).toBe(5);
    expect((await lotRow(w.tenant.id, credit.id)).reversed).toBe(0);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '45' });
    await balanceIsLedger(w);
  });
});
