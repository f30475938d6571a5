import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/lib/errors';
import { customers, internalTransactions, pointLots, type PointLot, type Reward } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { eventSchema } from '../../src/schemas/event';
import { redemptionSchema } from '../../src/schemas/redemption';
import { reversalSchema } from '../../src/schemas/reversal';
import { runLotJobs } from '../../src/services/point-jobs';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { expectLotInvariant } from '../support/lot-invariant';
import { pointsOf, pointsWorld, setPoints, type PointsWorld } from '../support/points';
import { gatewayRequest, portalRequest, raceTasks, requestTask } from '../support/race';
import { insertReward } from '../support/rewards';
import { createRuleViaApi } from '../support/rules';
import { db, shardRun } from '../support/world';

/**
 * Property (CONTRACT.md, Point lifecycle; docs/POINTS.md "The invariant"): for one customer, rounds
 * of earns and events (under changing validity and pending periods, so lots expire at different instants),
 * negative adjustments, redemptions, reversals and job runs at a moved clock, all fired at once
 * (each one's write held until all have done their reads: test/support/race.ts), leave
 * - the invariant of test/support/lot-invariant.ts for every customer of the tenant, and
 * - the books balanced by what the responses said: balance + pending = credits - debits that
 *   succeeded - expired - reversed.
 * After each round one more operation runs alone, and an in-memory model of the customer's lots
 * (taken from the database just before it) predicts its outcome exactly: debits take the active
 * lots earliest expiry first (none last), then the oldest; a reversal takes its credit's lot first;
 * a job run activates the pending lots whose time has come, then expires the active lots due.
 */

const MINUTE_MS = 60_000;
/** Held until every operation of a round has done its reads: the writes of credits and debits, a reversal's guarded batch, a job run's first chunk. */
const WRITES = /insert into "internal_transactions"|point_lot_guard|update "point_lots" set "reversed"|INSERT INTO lot_chunk/i;

type Op =
  | { kind: 'earn'; amount: number }
  | { kind: 'event' }
  | { kind: 'adjust'; amount: number }
  | { kind: 'redeem'; reward: number }
  | { kind: 'reverse'; credit: number; amount: number | undefined }
  | { kind: 'jobs'; minutes: number };
type Alone = Extract<Op, { kind: 'adjust' | 'reverse' | 'jobs' }>;
type Round = { validity: string | null; pending: string | null; ops: Op[]; alone: Alone };

const COSTS = [15, 40, 90];
const EVENT_AMOUNTS = [10, 25];
const jobsOp = fc.record({ kind: fc.constant('jobs' as const), minutes: fc.integer({ min: 0, max: 240 }) });
const adjustOp = fc.record({ kind: fc.constant('adjust' as const), amount: fc.integer({ min: 1, max: 120 }) });
const reverseOp = fc.record({ kind: fc.constant('reverse' as const), credit: fc.nat(), amount: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }) });
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('earn' as const), amount: fc.integer({ min: 1, max: 200 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'event' as const }) },
  { weight: 2, arbitrary: adjustOp },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeem' as const), reward: fc.nat({ max: COSTS.length - 1 }) }) },
  { weight: 2, arbitrary: reverseOp },
  { weight: 1, arbitrary: jobsOp },
);
const roundArbitrary: fc.Arbitrary<Round> = fc.record({
  validity: fc.constantFrom(null, 'PT1H', 'PT2H', 'PT3H', 'P1D'),
  pending: fc.constantFrom(null, null, 'PT10S', 'PT1H'),
  // At most two reversals a round: each may be decided again up to 5 times (services/reversals.ts).
  ops: fc.array(opArbitrary, { minLength: 1, maxLength: 7 }).filter((ops) => ops.filter((op) => op.kind === 'reverse').length <= 2),
  alone: fc.oneof(adjustOp, reverseOp, jobsOp),
});

let w: PointsWorld;
let rewards: Reward[];

/** What the responses of one customer's operations said: credits made, debits and reversals that took effect. */
type Books = { credits: string[]; credited: number; debited: number; reversed: number };

/** A job run of the lot jobs on the tenant's shard at a moved clock, over the (gated) bindings it is given. */
const jobRun = (minutes: number) => (runEnv: Bindings) => runLotJobs(shardRun(w.tenant.id, { now: () => new Date(Date.now() + minutes * MINUTE_MS) }, runEnv));

async function requestOf(userId: string, books: Books, op: Exclude<Op, { kind: 'jobs' }>): Promise<Request> {
  switch (op.kind) {
    case 'earn':
      return gatewayRequest(w.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: userId, type: 'xp_earn', amount: String(op.amount) } });
    case 'event':
      return gatewayRequest(w.key, 'POST', '/api/v1/gateway/events', { body: { type: 'order.paid', user_id: userId } });
    case 'adjust':
      return portalRequest(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${userId}/xp-adjustments`, { amount: String(-op.amount), notes: 'property' });
    case 'redeem':
      return gatewayRequest(w.key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: userId, reward_id: rewards[op.reward]?.id } });
    case 'reverse': {
      const credit = books.credits[op.credit % books.credits.length] ?? 'itx_none';
      return gatewayRequest(w.key, 'POST', `/api/v1/gateway/internal-transactions/${credit}/reverse`, { body: op.amount === undefined ? {} : { amount: String(op.amount) } });
    }
  }
}

/** Books one response, failing on any answer the operation may not give. */
function book(books: Books, op: Exclude<Op, { kind: 'jobs' }>, res: JsonResponse) {
  switch (op.kind) {
    case 'earn': {
      const credit = expectOk(res, 201, internalTransactionSchema);
      books.credits.push(credit.id);
      books.credited += op.amount;
      return;
    }
    case 'event': {
      const event = expectOk(res, 201, eventSchema);
      books.credits.push(...event.effects.flatMap((effect) => effect.internal_transaction_id ?? []));
      books.credited += Number(event.xp_awarded);
      return;
    }
    case 'adjust':
      if (res.status === 409) return void expectError(res, 409, 'INSUFFICIENT_XP');
      expectOk(res, 201, internalTransactionSchema);
      books.debited += op.amount;
      return;
    case 'redeem':
      if (res.status === 409) return void expectError(res, 409, 'INSUFFICIENT_XP');
      expectOk(res, 201, redemptionSchema);
      books.debited += COSTS[op.reward] ?? 0;
      return;
    case 'reverse': {
      if (res.status === 404) return void expectError(res, 404, 'NOT_FOUND');
      if (res.status === 409) {
        const code = (res.body as { error?: { code?: string } }).error?.code;
        expect(['REVERSAL_EXCEEDS_CREDIT', 'NOT_REVERSIBLE'], res.text).toContain(code);
        return;
      }
      books.reversed += Number(expectOk(res, 201, reversalSchema).reversed);
      return;
    }
  }
}

/** The customer's lots as stored, and the XP its expiries took. */
async function stateOf(userId: string) {
  const lots = await db(w.tenant.id).select().from(pointLots).where(and(eq(pointLots.tenantId, w.tenant.id), eq(pointLots.userId, userId)));
  const [expired] = await db(w.tenant.id)
    .select({ total: sql<number>`coalesce(-sum(${internalTransactions.amount}), 0)` })
    .from(internalTransactions)
    .where(and(eq(internalTransactions.tenantId, w.tenant.id), eq(internalTransactions.userId, userId), eq(internalTransactions.type, 'xp_expire'), eq(internalTransactions.status, 'completed')));
  const [customer] = await db(w.tenant.id).select({ xpBalance: customers.xpBalance }).from(customers).where(eq(customers.id, userId));
  return { lots, expired: Number(expired?.total ?? 0), balance: customer?.xpBalance ?? 0 };
}

// ---- the in-memory model of one customer's lots -------------------------------------------------

type ModelLot = Pick<PointLot, 'id' | 'internalTransactionId' | 'amount' | 'remaining' | 'reversed' | 'status' | 'availableAt' | 'expiresAt' | 'activatedAt' | 'createdAt'>;
type Model = { lots: ModelLot[]; balance: number };

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Spend order: earliest expiry first, lots without expiry last, then the oldest, then by id (as the trigger). */
function spendOrder(a: ModelLot, b: ModelLot): number {
  if ((a.expiresAt === null) !== (b.expiresAt === null)) return a.expiresAt === null ? 1 : -1;
  return byText(a.expiresAt ?? '', b.expiresAt ?? '') || byText(a.createdAt, b.createdAt) || byText(a.id, b.id);
}

/** Takes `amount` from the active lots, `first` (a reversal's own lot) before the spend order. */
function take(model: Model, amount: number, first?: string) {
  const active = model.lots.filter((lot) => lot.status === 'active').sort((a, b) => Number(b.id === first) - Number(a.id === first) || spendOrder(a, b));
  let left = amount;
  for (const lot of active) {
    const taken = Math.min(lot.remaining, left);
    lot.remaining -= taken;
    if (lot.remaining === 0) lot.status = 'spent';
    left -= taken;
    if (left === 0) break;
  }
  model.balance -= amount;
}

type Expected = { status: number; code?: ErrorCode };

/** Applies `op` to the model; the answer the API must give. */
function predict(model: Model, op: Alone, credit: string | undefined, at: string): Expected {
  if (op.kind === 'adjust') {
    if (op.amount > model.balance) return { status: 409, code: 'INSUFFICIENT_XP' };
    take(model, op.amount);
    return { status: 201 };
  }
  if (op.kind === 'jobs') {
    for (const lot of model.lots) {
      if (lot.status === 'pending' && lot.activatedAt === null && lot.availableAt <= at) {
        lot.status = lot.remaining > 0 ? 'active' : 'spent';
        model.balance += lot.remaining;
      }
    }
    for (const lot of model.lots) {
      if (lot.status === 'active' && lot.expiresAt !== null && lot.expiresAt <= at) {
        model.balance -= lot.remaining;
        lot.remaining = 0;
        lot.status = 'expired';
      }
    }
    return { status: 200 };
  }
  const lot = model.lots.find((candidate) => candidate.internalTransactionId === credit);
  if (!lot) return { status: 404, code: 'NOT_FOUND' };
  if (lot.status === 'reversed') return { status: 409, code: 'NOT_REVERSIBLE' };
  const left = lot.amount - lot.reversed;
  const requested = op.amount ?? left;
  if (requested > left || left === 0) return { status: 409, code: 'REVERSAL_EXCEEDS_CREDIT' };
  lot.reversed += requested;
  if (lot.status === 'pending') {
    lot.remaining -= requested;
    if (lot.remaining === 0) lot.status = 'reversed';
    return { status: 201 };
  }
  take(model, Math.min(requested, model.balance), lot.id);
  return { status: 201 };
}

const comparable = (lots: readonly ModelLot[]) =>
  [...lots].sort((a, b) => byText(a.id, b.id)).map(({ id, remaining, reversed, status }) => ({ id, remaining, reversed, status }));

/** Runs one operation alone, checking the answer and every lot against the model's prediction. */
async function runAlone(userId: string, books: Books, op: Alone) {
  const before = await stateOf(userId);
  const model: Model = { lots: before.lots.map((lot) => ({ ...lot })), balance: before.balance };
  const minutes = op.kind === 'jobs' ? op.minutes : 0;
  const at = new Date(Date.now() + minutes * MINUTE_MS);
  const credit = op.kind === 'reverse' ? books.credits[op.credit % Math.max(books.credits.length, 1)] : undefined;
  const expected = predict(model, op, credit, at.toISOString());
  if (op.kind === 'jobs') {
    await runLotJobs(shardRun(w.tenant.id, { now: () => at }));
  } else {
    const res = await requestTask(await requestOf(userId, books, op))();
    if (expected.code) expectError(res, expected.status, expected.code);
    book(books, op, res);
    expect(res.status, res.text).toBe(expected.status);
  }
  const after = await stateOf(userId);
  expect({ balance: after.balance, lots: comparable(after.lots) }, `${JSON.stringify(op)} from ${JSON.stringify(comparable(before.lots))}`).toEqual({
    balance: model.balance,
    lots: comparable(model.lots),
  });
}

/** One round: the operations at once, then the invariant and the books. */
async function runRound(userId: string, books: Books, round: Round) {
  await setPoints(w, { validity: round.validity ?? undefined, pending_period: round.pending ?? undefined });
  const requests = await Promise.all(round.ops.map(async (op) => (op.kind === 'jobs' ? undefined : await requestOf(userId, books, op))));
  const tasks = round.ops.map((op, index) => {
    const request = requests[index];
    return op.kind === 'jobs' || !request ? jobRun(op.kind === 'jobs' ? op.minutes : 0) : requestTask(request);
  });
  const { results } = await raceTasks<unknown>(tasks, WRITES);
  round.ops.forEach((op, index) => {
    if (op.kind !== 'jobs') book(books, op, results[index] as JsonResponse);
  });
  await expectLotInvariant(w.tenant.id);
  const points = await pointsOf(w, userId);
  const { expired } = await stateOf(userId);
  expect(Number(points.xp_balance) + Number(points.pending_xp), JSON.stringify({ books, expired, points })).toBe(books.credited - books.debited - expired - books.reversed);
}

/** A tenant of its own for each run, so a run that breaks the invariant shrinks to its own operations. */
async function freshWorld() {
  w = await pointsWorld();
  rewards = [];
  for (const xpCost of COSTS) rewards.push(await insertReward(w.tenant.id, { xpCost }));
  // An event gives two credits, so two lots with the same times.
  for (const amount of EVENT_AMOUNTS) await createRuleViaApi(w.tenant.owner, w.tenant.id, { name: `Order ${amount}`, effect: { kind: 'fixed', amount: String(amount) } });
}

describe('point lots against the invariant and an in-memory model', () => {
  it('earns, debits, redemptions, reversals and job runs at once keep every lot and balance exact', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.array(roundArbitrary, { minLength: 1, maxLength: 5 }), async (opening, rounds) => {
        await freshWorld();
        const userId = w.userId;
        const books: Books = { credits: [], credited: 0, debited: 0, reversed: 0 };
        // An opening credit under the last round's settings, so the first round has points to spend and reverse.
        book(books, { kind: 'earn', amount: opening }, await requestTask(await requestOf(userId, books, { kind: 'earn', amount: opening }))());
        for (const round of rounds) {
          await runRound(userId, books, round);
          await runAlone(userId, books, round.alone);
          await expectLotInvariant(w.tenant.id);
        }
      }),
      { numRuns: 25 },
    );
  });
});
