import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { internalTransactions, pointLots } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { reversalSchema } from '../../src/schemas/reversal';
import { runLotJobs, type LotJobSummary } from '../../src/services/point-jobs';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { expectLotInvariant } from '../support/lot-invariant';
import { earn, HOUR_MS, lotRow, pointsOf, pointsWorld, setPoints, type PointsWorld } from '../support/points';
import { gatewayRequest, portalRequest, race, raceTasks, requestTask } from '../support/race';
import { createCustomer } from '../support/ledger';
import { db, gatewayCall, shardRun } from '../support/world';

/**
 * The point lifecycle under concurrency (CONTRACT.md, Point lifecycle: "a lot expires once, whatever
 * runs at once"; "a credit is reversed at most its amount in total"; balances never below zero).
 * Every race is forced with test/support/race.ts: each request or job run does its reads, then its
 * write round trip is held until all have reached theirs (`held` proves the race happened).
 */

/** The expiry batch of a job run (the activation and notice statements never name `xp_expire`). */
const EXPIRY_BATCH = /'xp_expire'/;
/** A reversal's write batch (led by its guard) and the activation batch of a job run. */
const REVERSAL_OR_ACTIVATION = /point_lot_guard|update "point_lots" set "reversed"|INSERT INTO lot_chunk/i;
/** A debit's write batch (an adjustment) and the expiry batch of a job run. */
const DEBIT_OR_EXPIRY = /insert into "internal_transactions"|'xp_expire'/i;

/** A job run of the lot jobs at `at` on the tenant's shard, over the (gated) bindings it is given. */
const jobRunAt = (tenantId: string, at: number) => (runEnv: Bindings) => runLotJobs(shardRun(tenantId, { now: () => new Date(at) }, runEnv));

const reverseRequest = (w: PointsWorld, creditId: string, body: { amount?: string } = {}) =>
  gatewayRequest(w.key, 'POST', `/api/v1/gateway/internal-transactions/${creditId}/reverse`, { body });

async function expiriesOf(tenantId: string) {
  return db(tenantId)
    .select({ userId: internalTransactions.userId, amount: internalTransactions.amount, status: internalTransactions.status })
    .from(internalTransactions)
    .where(and(eq(internalTransactions.tenantId, tenantId), eq(internalTransactions.type, 'xp_expire')));
}

async function lotsOfTenant(tenantId: string) {
  return db(tenantId).select().from(pointLots).where(eq(pointLots.tenantId, tenantId));
}

describe('expiry runs at once', () => {
  it.each([2, 3])('%i job runs at once over the same due lots: each lot expires once, one xp_expire per customer, balances exact', async (runs) => {
    const w = await pointsWorld();
    const others = [w.userId, await createCustomer(w.tenant.id), await createCustomer(w.tenant.id), await createCustomer(w.tenant.id)];
    // Each customer: 100 without expiry, then 10 + 20 + 30 expiring within the hour.
    for (const userId of others) await earn(w, 100, userId);
    await setPoints(w, { validity: 'PT1H' });
    for (const userId of others) for (const amount of [10, 20, 30]) await earn(w, amount, userId);

    const { results, held } = await raceTasks(Array.from({ length: runs }, () => jobRunAt(w.tenant.id, Date.now() + 2 * HOUR_MS)), EXPIRY_BATCH);
    expect(held).toBe(runs);
    // Every tenant of the shard counts; this tenant's 12 lots expired once in all.
    expect(results.reduce((sum: number, summary: LotJobSummary) => sum + summary.expired, 0)).toBeGreaterThanOrEqual(12);

    const expiries = await expiriesOf(w.tenant.id);
    expect(expiries.map((row) => row.userId).sort()).toEqual([...others].sort());
    expect(expiries.every((row) => row.amount === -60 && row.status === 'completed')).toBe(true);
    const lots = await lotsOfTenant(w.tenant.id);
    expect(lots.filter((lot) => lot.status === 'expired')).toHaveLength(12);
    for (const userId of others) expect(await pointsOf(w, userId)).toMatchObject({ xp_balance: '100', lifetime_xp: '160', pending_xp: '0' });
    await expectLotInvariant(w.tenant.id);

    // A later run finds nothing left to expire.
    await jobRunAt(w.tenant.id, Date.now() + 3 * HOUR_MS)(env);
    expect(await expiriesOf(w.tenant.id)).toHaveLength(others.length);
  });
});

describe('a reversal racing the activation of its pending credit', () => {
  async function pendingCredit() {
    const w = await pointsWorld();
    await setPoints(w, { pending_period: 'PT10S' });
    const credit = await earn(w, 100);
    expect(credit.status).toBe('pending');
    return { w, credit };
  }

  const cases = [
    { name: 'activation first, whole reversal', order: 'activation', amount: undefined, balance: '0', creditStatus: 'completed', reversalType: 'xp_reversal' },
    { name: 'reversal first, whole reversal', order: 'reversal', amount: undefined, balance: '0', creditStatus: 'failed', reversalType: 'xp_earn' },
    { name: 'activation first, 30 of 100', order: 'activation', amount: '30', balance: '70', creditStatus: 'completed', reversalType: 'xp_reversal' },
    { name: 'reversal first, 30 of 100', order: 'reversal', amount: '30', balance: '70', creditStatus: 'completed', reversalType: 'xp_reversal' },
  ] as const;

  it.each(cases)('$name: takes back exactly once, whichever lands first', async ({ order, amount, balance, creditStatus, reversalType }) => {
    const { w, credit } = await pendingCredit();
    const reversal = requestTask(await reverseRequest(w, credit.id, amount === undefined ? {} : { amount }));
    const job = jobRunAt(w.tenant.id, Date.now() + HOUR_MS);
    const tasks = order === 'activation' ? [job, reversal] : [reversal, job];
    const { results, held } = await raceTasks<unknown>(tasks, REVERSAL_OR_ACTIVATION, { inOrder: true });
    expect(held).toBe(2);
    const response = results[order === 'activation' ? 1 : 0] as JsonResponse;
    const data = expectOk(response, 201, reversalSchema);
    expect(data).toMatchObject({ reversed: amount ?? '100', unrecovered: '0', internal_transaction: { type: reversalType } });

    const after = expectOk(await gatewayCall(w.key, 'GET', `/api/v1/gateway/internal-transactions/${credit.id}`), 200, internalTransactionSchema);
    expect(after.status).toBe(creditStatus);
    const lot = await lotRow(w.tenant.id, credit.id);
    expect(lot.reversed).toBe(Number(amount ?? '100'));
    expect(await pointsOf(w)).toMatchObject({ xp_balance: balance, pending_xp: '0', lifetime_xp: creditStatus === 'failed' ? '0' : '100' });
    await expectLotInvariant(w.tenant.id);
  });
});

describe('partial reversals at once', () => {
  it('20 reversals of 10 at once of one credit of 100: never more than 100 in total, exactly 100, every other one a 409 (never a 500)', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    await earn(w, 100);
    const requests = await Promise.all(Array.from({ length: 20 }, () => reverseRequest(w, credit.id, { amount: '10' })));
    const { responses, held } = await race(requests, /point_lot_guard|update "point_lots" set "reversed"/);
    expect(held).toBe(20);
    const done = responses.filter((res) => res.status === 201).map((res) => expectOk(res, 201, reversalSchema));
    const taken = done.reduce((sum, data) => sum + Number(data.reversed) + Number(data.unrecovered), 0);
    expect(taken).toBeLessThanOrEqual(100);
    const lot = await lotRow(w.tenant.id, credit.id);
    expect(lot.reversed).toBe(taken);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: String(200 - taken) });
    await expectLotInvariant(w.tenant.id);
    // A reversal that loses the race is decided again; one that finds nothing left is told so
    // (409), never a 500: contention is no server fault.
    const refusals = responses.filter((res) => res.status !== 201);
    expect(refusals.map((res) => `${res.status} ${(res.body as { error?: { code?: string } }).error?.code}`)).toEqual(refusals.map(() => '409 REVERSAL_EXCEEDS_CREDIT'));
    expect(taken).toBe(100);
  });

  it('10 whole reversals at once of one credit: exactly one takes it back, the others are told nothing is left', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    const requests = await Promise.all(Array.from({ length: 10 }, () => reverseRequest(w, credit.id)));
    const { responses, held } = await race(requests, /point_lot_guard|update "point_lots" set "reversed"/);
    expect(held).toBe(10);
    expect(responses.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 201)) expectError(res, 409, 'REVERSAL_EXCEEDS_CREDIT');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0', lifetime_xp: '100' });
    await expectLotInvariant(w.tenant.id);
  });
});

describe('spends racing expiry', () => {
  it('adjustments racing the expiry of the lots they spend never take the balance below zero', async () => {
    const w = await pointsWorld();
    await earn(w, 50);
    await setPoints(w, { validity: 'PT1H' });
    await earn(w, 100);
    const spends = await Promise.all(Array.from({ length: 4 }, () => portalRequest(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/xp-adjustments`, { amount: '-60', notes: 'race' })));
    const { results, held } = await raceTasks<unknown>([jobRunAt(w.tenant.id, Date.now() + 2 * HOUR_MS), ...spends.map((request) => requestTask(request))], DEBIT_OR_EXPIRY);
    expect(held).toBe(5);
    const responses = results.slice(1) as JsonResponse[];
    const spent = responses.filter((res) => res.status === 201).length * 60;
    for (const res of responses.filter((r) => r.status !== 201)) expectError(res, 409, 'INSUFFICIENT_XP');
    const expired = -(await expiriesOf(w.tenant.id)).reduce((sum, row) => sum + row.amount, 0);
    const points = await pointsOf(w);
    expect(Number(points.xp_balance)).toBeGreaterThanOrEqual(0);
    expect(Number(points.xp_balance)).toBe(150 - spent - expired);
    // Whatever ran first, the expiring lot is empty now and only the lot without expiry may hold points.
    const lots = await lotsOfTenant(w.tenant.id);
    expect(lots.filter((lot) => lot.expiresAt !== null && lot.remaining > 0)).toEqual([]);
    await expectLotInvariant(w.tenant.id);
  });

  it('a reversal racing the expiry of its credit takes back what is left, from the other points, never below zero', async () => {
    const w = await pointsWorld();
    await earn(w, 30);
    await setPoints(w, { validity: 'PT1H' });
    const credit = await earn(w, 100);
    const reversal = requestTask(await reverseRequest(w, credit.id));
    const { results, held } = await raceTasks<unknown>([jobRunAt(w.tenant.id, Date.now() + 2 * HOUR_MS), reversal], /point_lot_guard|update "point_lots" set "reversed"|'xp_expire'/, { inOrder: true });
    expect(held).toBe(2);
    const data = expectOk(results[1] as JsonResponse, 201, reversalSchema);
    // The expiry took the credit's 100 first; the reversal then takes what the customer still has.
    expect(data).toMatchObject({ reversed: '30', unrecovered: '70' });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
    await expectLotInvariant(w.tenant.id);
  });
});

describe('a pending credit reaching its day while debits run', () => {
  it('a job run and spends at once never debit the pending lot before it is active', async () => {
    const w = await pointsWorld();
    await earn(w, 40);
    await setPoints(w, { pending_period: 'PT10S', validity: 'P1D' });
    await earn(w, 100);
    const spends = await Promise.all(Array.from({ length: 3 }, () => portalRequest(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/xp-adjustments`, { amount: '-50', notes: 'race' })));
    const { results, held } = await raceTasks<unknown>([jobRunAt(w.tenant.id, Date.now() + HOUR_MS), ...spends.map((request) => requestTask(request))], /insert into "internal_transactions"|INSERT INTO lot_chunk/i);
    expect(held).toBe(4);
    const spent = (results.slice(1) as JsonResponse[]).filter((res) => res.status === 201).length * 50;
    expect(await pointsOf(w)).toMatchObject({ xp_balance: String(140 - spent), pending_xp: '0' });
    await expectLotInvariant(w.tenant.id);
  });
});
