import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, pointLots } from '../../src/db/schema';
import { LOT_CHUNK } from '../../src/services/point-jobs';
import { redemptionSchema } from '../../src/schemas/redemption';
import { expectOk } from '../support/http';
import { createCustomer, ledgerState } from '../support/ledger';
import { DAY_MS, debit, earn, HOUR_MS, lotRow, pointsOf, pointsWorld, recordedEvents, runLotJobsAt, setPoints, transactionsOfType, type PointsWorld } from '../support/points';
import { insertReward, redeem } from '../support/rewards';
import { createEndpoint, deliverPending, newInbox, received, verifiedEvent } from '../support/webhooks';
import { db, portalCall } from '../support/world';

/** Expiry and its notices (CONTRACT.md, Point lifecycle): the minute cron's lot jobs run at a chosen instant. */

/** Per customer: 10 XP that never expire, then two lots of `amounts` that expire after one day (no rounding). */
async function customerWithExpiringLots(w: PointsWorld, userId: string, amounts: [number, number]) {
  await setPoints(w, {});
  await earn(w, 10, userId);
  await setPoints(w, { validity: 'P1D' });
  const first = await earn(w, amounts[0], userId);
  return [first, await earn(w, amounts[1], userId)] as const;
}

describe('expiry (the minute job)', () => {
  it('writes ONE xp_expire per customer for all its due lots, by exactly what they hold (a partly spent lot its remaining); a second run changes nothing', async () => {
    const w = await pointsWorld();
    const other = await createCustomer(w.tenant.id);
    const [first, second] = await customerWithExpiringLots(w, w.userId, [100, 50]);
    const [third, fourth] = await customerWithExpiringLots(w, other, [70, 5]);
    // The earliest expiry first: 30 of the 100.
    await debit(w, 30);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '130', lifetime_xp: '160' });

    await runLotJobsAt(Date.now() + HOUR_MS);
    expect(await transactionsOfType(w, 'xp_expire')).toEqual([]);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '130' });

    const at = Date.now() + 2 * DAY_MS;
    await runLotJobsAt(at);
    const [mine, ...moreOfMine] = await transactionsOfType(w, 'xp_expire');
    expect(moreOfMine).toEqual([]);
    expect(mine).toMatchObject({ user_id: w.userId, type: 'xp_expire', amount: '-120', status: 'completed', metadata: { lots: 2 } });
    const [theirs, ...moreOfTheirs] = await transactionsOfType(w, 'xp_expire', other);
    expect(moreOfTheirs).toEqual([]);
    expect(theirs).toMatchObject({ user_id: other, amount: '-75', status: 'completed', metadata: { lots: 2 } });
    expect(theirs!.id).not.toBe(mine!.id);

    for (const [credit, by] of [[first, mine], [second, mine], [third, theirs], [fourth, theirs]] as const) {
      expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'expired', remaining: 0, expiredBy: by!.id });
    }
    // Expiry takes balance, never lifetime XP.
    expect(await pointsOf(w)).toEqual({ xp_balance: '10', pending_xp: '0', lifetime_xp: '160', expiring: [] });
    expect(await pointsOf(w, other)).toEqual({ xp_balance: '10', pending_xp: '0', lifetime_xp: '85', expiring: [] });
    for (const userId of [w.userId, other]) {
      const state = await ledgerState(w.tenant.id, userId);
      expect(state.balance).toBe(state.ledgerSum);
    }

    await runLotJobsAt(at + DAY_MS);
    expect(await transactionsOfType(w, 'xp_expire')).toHaveLength(1);
    expect(await transactionsOfType(w, 'xp_expire', other)).toHaveLength(1);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '10' });
  });

  it('a spent lot does not expire; refunded after its expiry it is active again and the next run expires what came back', async () => {
    const w = await pointsWorld();
    const [credit, next] = await customerWithExpiringLots(w, w.userId, [40, 60]);
    const reward = await insertReward(w.tenant.id, { xpCost: 40 });
    const redemption = expectOk(await redeem(w.key, w.userId, reward.id), 201, redemptionSchema);
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'spent', remaining: 0 });
    const at = Date.now() + 2 * DAY_MS;
    await runLotJobsAt(at);
    expect(await transactionsOfType(w, 'xp_expire')).toMatchObject([{ amount: '-60', metadata: { lots: 1 } }]);
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'spent', expiredBy: null });
    expect(await lotRow(w.tenant.id, next.id)).toMatchObject({ status: 'expired' });

    expectOk(await portalCall(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/redemptions/${redemption.id}/cancel`), 200, redemptionSchema);
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'active', remaining: 40 });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '50' });
    await runLotJobsAt(at + HOUR_MS);
    expect((await transactionsOfType(w, 'xp_expire')).map((t) => t.amount).sort()).toEqual(['-40', '-60']);
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'expired', remaining: 0 });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '10' });
  });
});

describe('expiry in chunks', () => {
  it('a backlog over one chunk (LOT_CHUNK) is taken in the same run, each lot once, the balance by exactly its total', async () => {
    const w = await pointsWorld();
    const count = LOT_CHUNK + 100;
    const past = new Date(Date.now() - DAY_MS).toISOString();
    // Seeded as a balance held in lots without a credit (as the migration from balances makes them): 1 or 2 XP each.
    await db(w.tenant.id).run(sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO point_lots (id, tenant_id, user_id, internal_transaction_id, amount, remaining, reversed, status, available_at, expires_at, activated_at, created_at, updated_at)
      SELECT 'lot_' || lower(hex(randomblob(16))), ${w.tenant.id}, ${w.userId}, NULL, 2, 1 + i % 2, 0, 'active', ${past}, ${past}, ${past}, ${past}, ${past} FROM n`);
    const total = count + Math.ceil(count / 2);
    await db(w.tenant.id).update(customers).set({ xpBalance: total }).where(eq(customers.id, w.userId));
    const summary = await runLotJobsAt(Date.now());
    expect(summary.expired).toBeGreaterThanOrEqual(count);
    const expires = await transactionsOfType(w, 'xp_expire');
    expect(expires.length).toBeGreaterThanOrEqual(2);
    expect(expires.reduce((sum, t) => sum + Number(t.amount), 0)).toBe(-total);
    expect(expires.reduce((sum, t) => sum + (t.metadata as { lots: number }).lots, 0)).toBe(count);
    const left = await db(w.tenant.id).select().from(pointLots).where(and(eq(pointLots.userId, w.userId), eq(pointLots.status, 'active')));
    expect(left).toEqual([]);
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
  });
});

describe('expiry webhooks', () => {
  it('xp.expiring once per lot still holding points, expiry_notice before; xp.expired once per xp_expire', async () => {
    const w = await pointsWorld();
    const inbox = newInbox();
    const endpoint = await createEndpoint(w.tenant.owner, w.tenant.id, inbox.url, ['xp.expiring', 'xp.expired']);
    await setPoints(w, { validity: 'P1D', expiry_notice: 'PT12H' });
    const a = await earn(w, 40);
    const b = await earn(w, 60);
    const c = await earn(w, 5);
    // Takes all of `a` (the earliest expiry) and 5 of `b`: the spent `a` is not announced.
    await debit(w, 45);
    const lots = await Promise.all([a, b, c].map((credit) => lotRow(w.tenant.id, credit.id)));
    expect(Date.parse(lots[0]!.noticeAt!)).toBe(Date.parse(lots[0]!.expiresAt!) - 12 * HOUR_MS);

    await runLotJobsAt(Date.now() + HOUR_MS);
    expect(await recordedEvents(w.tenant.id, 'xp.expiring')).toEqual([]);

    const noticed = Date.now() + 13 * HOUR_MS;
    await runLotJobsAt(noticed);
    await runLotJobsAt(noticed + HOUR_MS);
    expect((await recordedEvents(w.tenant.id, 'xp.expiring')).sort()).toEqual([lots[1]!.id, lots[2]!.id].sort());
    expect(await recordedEvents(w.tenant.id, 'xp.expired')).toEqual([]);
    // Delivered as documented: the lot (as it is when sent) with its customer.
    await deliverPending(w.tenant.id);
    const bodiesOf = async (type: string) => (await received(inbox.name)).map((request) => verifiedEvent(request, endpoint.secret)).filter((body) => body.type === type);
    const expiring = (await bodiesOf('xp.expiring')).map((body) => body.data.data);
    expect(expiring).toHaveLength(2);
    expect(expiring).toContainEqual(expect.objectContaining({ id: lots[1]!.id, user_id: w.userId, internal_transaction_id: b.id, remaining: '55', status: 'active' }));

    const at = Date.now() + 2 * DAY_MS;
    await runLotJobsAt(at);
    await runLotJobsAt(at + HOUR_MS);
    const [expire] = await transactionsOfType(w, 'xp_expire');
    expect(expire).toMatchObject({ amount: '-60', metadata: { lots: 2 } });
    expect(await recordedEvents(w.tenant.id, 'xp.expired')).toEqual([expire!.id]);
    expect(await recordedEvents(w.tenant.id, 'xp.expiring')).toHaveLength(2);

    await deliverPending(w.tenant.id);
    const expired = (await bodiesOf('xp.expired')).map((body) => body.data.data);
    expect(expired).toEqual([expect.objectContaining({ id: expire!.id, type: 'xp_expire', amount: '-60', status: 'completed' })]);
  });
});
