import { describe, expect, it } from 'vitest';
import { redemptionSchema } from '../../src/schemas/redemption';
import { expectError, expectOk } from '../support/http';
import { ledgerState } from '../support/ledger';
import {
  adjust,
  DAY_MS,
  debit,
  earn,
  HOUR_MS,
  lotRow,
  lotsOf,
  pointsOf,
  pointsWorld,
  recordedEvents,
  runLotJobsAt,
  SECOND_MS,
  setPoints,
  transactionOf,
  type PointsWorld,
} from '../support/points';
import { insertReward, redeem } from '../support/rewards';
import { createRuleViaApi, recordEvent } from '../support/rules';
import { createEndpoint, newInbox } from '../support/webhooks';
import { portalCall } from '../support/world';

/** The point lifecycle over the HTTP surface (CONTRACT.md, Point lifecycle): lots, spend order, refunds, the pending period, settings over time. */

/** The lots of the world's customer keyed by their credit: `{amount, remaining, status}` each. */
async function lotStates(w: PointsWorld) {
  const lots = await lotsOf(w);
  return Object.fromEntries(lots.map((lot) => [lot.internal_transaction_id, { amount: lot.amount, remaining: lot.remaining, status: lot.status }]));
}

async function redeemFor(w: PointsWorld, xpCost: number) {
  const reward = await insertReward(w.tenant.id, { xpCost });
  return { reward, redemption: expectOk(await redeem(w.key, w.userId, reward.id), 201, redemptionSchema) };
}

describe('point lots under the default settings', () => {
  it('an earn makes one active lot holding its whole amount, without expiry, spendable at once', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 100);
    expect(credit.status).toBe('completed');
    const lots = await lotsOf(w);
    expect(lots).toEqual([
      { id: expect.stringMatching(/^lot_/), internal_transaction_id: credit.id, amount: '100', remaining: '100', status: 'active', available_at: credit.created_at, expires_at: null, created_at: credit.created_at },
    ]);
    expect(await pointsOf(w)).toEqual({ xp_balance: '100', pending_xp: '0', lifetime_xp: '100', expiring: [] });
  });

  it('debits (adjustments and redemptions) take the earliest expiry first, the lot without expiry last, and lots reach spent', async () => {
    const w = await pointsWorld();
    const forever = await earn(w, 100);
    await setPoints(w, { validity: 'P3D' });
    const late = await earn(w, 30);
    await setPoints(w, { validity: 'P1D' });
    const early = await earn(w, 20);
    await setPoints(w, { validity: 'P2D' });
    const middle = await earn(w, 40);

    await debit(w, 30);
    expect(await lotStates(w)).toEqual({
      [early.id]: { amount: '20', remaining: '0', status: 'spent' },
      [middle.id]: { amount: '40', remaining: '30', status: 'active' },
      [late.id]: { amount: '30', remaining: '30', status: 'active' },
      [forever.id]: { amount: '100', remaining: '100', status: 'active' },
    });
    await redeemFor(w, 50);
    expect(await lotStates(w)).toMatchObject({ [middle.id]: { remaining: '0', status: 'spent' }, [late.id]: { remaining: '10', status: 'active' }, [forever.id]: { remaining: '100' } });
    await debit(w, 15);
    expect(await lotStates(w)).toMatchObject({ [late.id]: { remaining: '0', status: 'spent' }, [forever.id]: { remaining: '95', status: 'active' } });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '95', lifetime_xp: '190' });
  });

  it('a canceled redemption gives back to the very lots its spend took, making a spent lot active again, without a new lot', async () => {
    const w = await pointsWorld();
    const forever = await earn(w, 100);
    await setPoints(w, { validity: 'P1D' });
    const expiring = await earn(w, 30);
    const { redemption } = await redeemFor(w, 50);
    expect(await lotStates(w)).toEqual({
      [expiring.id]: { amount: '30', remaining: '0', status: 'spent' },
      [forever.id]: { amount: '100', remaining: '80', status: 'active' },
    });
    expectOk(await portalCall(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/redemptions/${redemption.id}/cancel`), 200, redemptionSchema);
    expect(await lotStates(w)).toEqual({
      [expiring.id]: { amount: '30', remaining: '30', status: 'active' },
      [forever.id]: { amount: '100', remaining: '100', status: 'active' },
    });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '130', lifetime_xp: '130' });
  });

  it('a failed debit (409 INSUFFICIENT_XP) touches no lot', async () => {
    const w = await pointsWorld();
    const credit = await earn(w, 40);
    expectError(await adjust(w, -41), 409, 'INSUFFICIENT_XP', 'The XP balance is too low for this adjustment');
    expect(await lotStates(w)).toEqual({ [credit.id]: { amount: '40', remaining: '40', status: 'active' } });
  });
});

describe('the pending period', () => {
  it('holds a credit pending (no balance, no lifetime, not spendable) until the job runs after available_at, then completes it once', async () => {
    const w = await pointsWorld();
    await earn(w, 50);
    await setPoints(w, { pending_period: 'P1D' });
    await createEndpoint(w.tenant.owner, w.tenant.id, newInbox().url, ['xp.transaction.completed']);
    const credit = await earn(w, 40);
    expect(credit.status).toBe('pending');
    expect(await pointsOf(w)).toEqual({ xp_balance: '50', pending_xp: '40', lifetime_xp: '50', expiring: [] });
    const lot = await lotRow(w.tenant.id, credit.id);
    expect(lot).toMatchObject({ status: 'pending', remaining: 40, activatedAt: null });

    // Pending points are not spendable, by an adjustment or a redemption.
    expectError(await adjust(w, -60), 409, 'INSUFFICIENT_XP');
    const reward = await insertReward(w.tenant.id, { xpCost: 60 });
    expectError(await redeem(w.key, w.userId, reward.id), 409, 'INSUFFICIENT_XP');

    const availableAt = Date.parse(lot.availableAt);
    for (const at of [Date.now(), availableAt - SECOND_MS]) {
      await runLotJobsAt(at);
      expect((await transactionOf(w, credit.id)).status).toBe('pending');
      expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'pending', activatedAt: null });
    }
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '50', pending_xp: '40', lifetime_xp: '50' });
    expect(await recordedEvents(w.tenant.id, 'xp.transaction.completed')).not.toContain(credit.id);

    for (const at of [availableAt, availableAt + HOUR_MS]) {
      await runLotJobsAt(at);
      expect(await transactionOf(w, credit.id)).toMatchObject({ status: 'completed', amount: '40' });
      expect(await pointsOf(w)).toEqual({ xp_balance: '90', pending_xp: '0', lifetime_xp: '90', expiring: [] });
      expect((await lotsOf(w)).find((l) => l.internal_transaction_id === credit.id)).toMatchObject({ status: 'active', remaining: '40' });
      expect((await recordedEvents(w.tenant.id, 'xp.transaction.completed')).filter((id) => id === credit.id)).toHaveLength(1);
    }
    const state = await ledgerState(w.tenant.id, w.userId);
    expect(state.balance).toBe(state.ledgerSum);
    // Now spendable.
    await debit(w, 90);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0', pending_xp: '0' });
  });

  it('a pending credit whose expiry also passed before the job ran is activated, then expired, in the same run', async () => {
    const w = await pointsWorld();
    await setPoints(w, { pending_period: 'PT1H', validity: 'PT1H' });
    const credit = await earn(w, 25);
    await runLotJobsAt(Date.now() + 3 * HOUR_MS);
    expect(await transactionOf(w, credit.id)).toMatchObject({ status: 'completed' });
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'expired', remaining: 0 });
    expect(await pointsOf(w)).toEqual({ xp_balance: '0', pending_xp: '0', lifetime_xp: '25', expiring: [] });
  });
});

describe('event effects', () => {
  it('each effect is a lot with the event’s times: pending through the pending period, then active', async () => {
    const w = await pointsWorld();
    await createRuleViaApi(w.tenant.owner, w.tenant.id, { name: 'Base', stackable: true, effect: { kind: 'fixed', amount: '10' } });
    await createRuleViaApi(w.tenant.owner, w.tenant.id, { name: 'Bonus', stackable: true, effect: { kind: 'fixed', amount: '5' } });
    await setPoints(w, { pending_period: 'P1D', validity: 'P30D' });
    const event = await recordEvent(w.key, { user_id: w.userId });
    const credits = event.effects.map((effect) => effect.internal_transaction_id!);
    expect(credits).toHaveLength(2);
    const lots = await Promise.all(credits.map((id) => lotRow(w.tenant.id, id)));
    expect(lots.map((lot) => [lot.amount, lot.status]).sort()).toEqual([[10, 'pending'], [5, 'pending']]);
    expect(new Set(lots.map((lot) => `${lot.availableAt} ${lot.expiresAt}`)).size).toBe(1);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0', pending_xp: '15', lifetime_xp: '0' });
    await runLotJobsAt(Date.parse(lots[0]!.availableAt));
    for (const id of credits) expect((await transactionOf(w, id)).status).toBe('completed');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '15', pending_xp: '0', lifetime_xp: '15' });
  });
});

describe('settings over time', () => {
  it('apply to credits made after the change only: the earlier lot keeps no expiry, the next one has it', async () => {
    const w = await pointsWorld();
    const before = await earn(w, 10);
    await setPoints(w, { validity: 'P30D' });
    const after = await earn(w, 20);
    const lots = await lotsOf(w);
    expect(lots.find((l) => l.internal_transaction_id === before.id)?.expires_at).toBeNull();
    const made = lots.find((l) => l.internal_transaction_id === after.id)!;
    expect(Date.parse(made.expires_at!)).toBe(Date.parse(made.available_at) + 30 * DAY_MS);
    // And back: a credit after the validity is removed does not expire.
    await setPoints(w, {});
    const last = await earn(w, 5);
    expect((await lotsOf(w)).find((l) => l.internal_transaction_id === last.id)?.expires_at).toBeNull();
  });

  it('end_of_day in America/New_York: expires_at is the next New York midnight after available_at + P1D, in UTC', async () => {
    const w = await pointsWorld();
    await setPoints(w, { validity: 'P1D', expiry_rounding: 'end_of_day' }, 'America/New_York');
    const credit = await earn(w, 10);
    const [lot] = await lotsOf(w);
    expect(lot?.internal_transaction_id).toBe(credit.id);
    const expiresAt = new Date(lot!.expires_at!);
    expect(lot!.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T0[45]:00:00\.000Z$/);
    expect(newYork(expiresAt).time).toBe('00:00:00');
    // The day after the New York day one day after it became available.
    expect(newYork(expiresAt).date).toBe(nextDay(nextDay(newYork(new Date(lot!.available_at)).date)));
  });
});

/** A New York wall clock as `YYYY-MM-DD` and `HH:MM:SS`. */
function newYork(instant: Date) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}:${part('second')}` };
}

function nextDay(date: string) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}
