import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, programSettings, tierReviewDates, webhookEvents } from '../../src/db/schema';
import { customerSchema } from '../../src/schemas/customer';
import { programSettingsSchema } from '../../src/schemas/program-settings';
import { redemptionSchema } from '../../src/schemas/redemption';
import { createTierViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { earn, pointsWorld, runLotJobsAt, SECOND_MS, type PointsWorld } from '../support/points';
import { insertReward, redeem } from '../support/rewards';
import { createCohort, memberIds, rulesOf } from '../support/segments';
import { createEndpoint, newInbox } from '../support/webhooks';
import { db, gatewayCall, portalCall } from '../support/world';

/**
 * Tiers on XP earned in a period over the HTTP surface (CONTRACT.md, Point lifecycle; docs/POINTS.md,
 * "Tiers on XP earned in a period"): nobody drops when the tenant switches, upgrades at once,
 * reviews by `downgrade`, `tier_valid_until`, `customer.tier_changed` with its reason, ladder edits
 * that never lower a held tier. Reviews run through the minute cron's jobs with a moved clock.
 */

type Tiers = { period: string; downgrade?: 'none' | 'one_step' | 'recalculate'; review?: 'monthly' | 'quarterly' | 'yearly'; basis?: 'lifetime' | 'earned_in_period' };

async function setTiers(w: PointsWorld, tiers: Tiers, timezone = 'UTC') {
  const body = {
    timezone,
    tiers: { basis: tiers.basis ?? 'earned_in_period', period: tiers.period, downgrade: tiers.downgrade ?? 'one_step', review: tiers.review ?? 'monthly' },
  };
  return expectOk(await portalCall(w.tenant.owner, 'PUT', `/api/v1/tenant/${w.tenant.id}/program-settings`, body), 200, programSettingsSchema);
}

async function customerOf(w: PointsWorld, userId = w.userId) {
  return expectOk(await gatewayCall(w.key, 'GET', `/api/v1/gateway/customers/${userId}`), 200, customerSchema);
}

/** A world with the ladder Silver 500, Gold 1000, Platinum 5000 and a webhook endpoint for tier changes. */
async function ladderWorld() {
  const w = await pointsWorld();
  const silver = await createTierViaApi(w.tenant.owner, w.tenant.id, 'Silver', 500);
  const gold = await createTierViaApi(w.tenant.owner, w.tenant.id, 'Gold', 1000);
  const platinum = await createTierViaApi(w.tenant.owner, w.tenant.id, 'Platinum', 5000);
  await createEndpoint(w.tenant.owner, w.tenant.id, newInbox().url, ['customer.tier_changed']);
  return { w, silver, gold, platinum };
}

/** The first day of a month (UTC midnight) at or after `instant` plus `months` and `seconds`: a monthly review date in UTC. */
function firstMonthlyReviewAfter(instant: Date, months: number, seconds = 0): string {
  const end = new Date(instant.getTime());
  end.setUTCMonth(end.getUTCMonth() + months);
  end.setTime(end.getTime() + seconds * SECOND_MS);
  const review = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
  if (review.getTime() < end.getTime()) review.setUTCMonth(review.getUTCMonth() + 1);
  return review.toISOString();
}

/** The tenant's recorded customer.tier_changed events, oldest first: before, reason. */
async function tierChanges(tenantId: string, userId: string) {
  const rows = await db(tenantId)
    .select({ previous: webhookEvents.previousAttributes, reason: webhookEvents.reason })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.tenantId, tenantId), eq(webhookEvents.type, 'customer.tier_changed'), eq(webhookEvents.resourceId, userId)))
    .orderBy(webhookEvents.createdAt);
  return rows.map((row) => ({ before: (row.previous as { tier: { tier_name: string } | null }).tier?.tier_name ?? null, reason: row.reason }));
}

const reviewAt = (validUntil: string | null) => {
  if (validUntil === null) throw new Error('no review date');
  return new Date(Date.parse(validUntil) + SECOND_MS);
};

/**
 * Gold reached now (a pending credit of 1,000 activated by the job a minute on), due for review at
 * `review`, with a second credit of 1,000 made spendable inside the period that review judges (the
 * activation job run 15 days before it): the job's clock is the credit's, so XP lands in a future period.
 */
async function goldDueWithCreditInItsPeriod(w: PointsWorld) {
  const body = { timezone: 'UTC', points: { pending_period: 'PT10S' }, tiers: { basis: 'earned_in_period', period: 'P1M', downgrade: 'recalculate', review: 'monthly' } };
  expectOk(await portalCall(w.tenant.owner, 'PUT', `/api/v1/tenant/${w.tenant.id}/program-settings`, body), 200, programSettingsSchema);
  await earn(w, 1000);
  await runLotJobsAt(Date.now() + 60 * SECOND_MS);
  const held = await customerOf(w);
  expect(held.tier?.tier_name).toBe('Gold');
  const review = held.tier_valid_until ?? '';
  const credit = await earn(w, 1000);
  await runLotJobsAt(Date.parse(review) - 15 * 86_400 * SECOND_MS);
  // 2,000 XP in the month before: still Gold (Platinum is 5,000), so the review date stays.
  expect(await customerOf(w)).toMatchObject({ tier: { tier_name: 'Gold' }, tier_valid_until: review, lifetime_xp: '2000' });
  return { review, credit };
}

describe('tiers on earned_in_period: switching', () => {
  it('nobody drops when the tenant switches: each keeps its lifetime tier until the first review whose period starts after the switch', async () => {
    const { w, silver } = await ladderWorld();
    await earn(w, 600);
    const before = new Date();
    await setTiers(w, { period: 'P1Y' });
    const customer = await customerOf(w);
    expect(customer.tier).toEqual({ id: silver.id, tier_name: 'Silver' });
    // The first 1st of a month at least a year after the switch.
    expect([firstMonthlyReviewAfter(before, 12), firstMonthlyReviewAfter(new Date(), 12)]).toContain(customer.tier_valid_until);
    expect(await tierChanges(w.tenant.id, w.userId)).toEqual([{ before: null, reason: 'upgrade' }]);
  });

  it('a customer without a tier shows no review date, and back on lifetime XP the tier is placed by lifetime XP at once', async () => {
    const { w, gold } = await ladderWorld();
    await setTiers(w, { period: 'PT1H', downgrade: 'recalculate' });
    expect(await customerOf(w)).toMatchObject({ tier: null, tier_valid_until: null });
    await earn(w, 1200);
    const held = await customerOf(w);
    expect(held).toMatchObject({ tier: { id: gold.id }, tier_valid_until: expect.any(String) });
    await runLotJobsAt(reviewAt(held.tier_valid_until));
    expect(await customerOf(w)).toMatchObject({ tier: null, tier_valid_until: null, lifetime_xp: '1200' });

    await setTiers(w, { basis: 'lifetime', period: 'PT1H' });
    expect(await customerOf(w)).toMatchObject({ tier: { id: gold.id }, tier_valid_until: null });
    const [row] = await db(w.tenant.id).select().from(customers).where(eq(customers.id, w.userId));
    expect(row).toMatchObject({ tierHeld: false, tierId: null, tierValidUntil: null });
    expect((await tierChanges(w.tenant.id, w.userId)).map((change) => change.reason)).toEqual(['upgrade', 'review', 'upgrade']);
  });

  it('saves switching both ways at once leave every customer as the settings saved last say', async () => {
    const { w } = await ladderWorld();
    await earn(w, 700);
    for (let round = 0; round < 4; round++) {
      await Promise.all([setTiers(w, { period: 'P1Y' }), setTiers(w, { basis: 'lifetime', period: 'P1Y' }), earn(w, 1)]);
      const settings = expectOk(await portalCall(w.tenant.owner, 'GET', `/api/v1/tenant/${w.tenant.id}/program-settings`), 200, programSettingsSchema);
      const [row] = await db(w.tenant.id).select().from(customers).where(eq(customers.id, w.userId));
      expect(row?.tierHeld).toBe(settings.tiers.basis === 'earned_in_period');
      expect((await customerOf(w)).tier?.tier_name).toBe('Silver');
    }
  });

  it('a customer created under earned_in_period holds the tier at 0 XP, without a review date', async () => {
    const { w } = await ladderWorld();
    await setTiers(w, { period: 'P1M' });
    const base = await createTierViaApi(w.tenant.owner, w.tenant.id, 'Member', 0);
    const created = expectOk(await gatewayCall(w.key, 'POST', '/api/v1/gateway/customers', { body: { external_id: `ext_${Date.now()}` } }), 201, customerSchema);
    expect(created).toMatchObject({ tier: { id: base.id }, tier_valid_until: null });
    expect(await customerOf(w, created.id)).toMatchObject({ tier: { id: base.id }, tier_valid_until: null });
  });
});

describe('tiers on earned_in_period: upgrades and reviews', () => {
  it('an upgrade applies at once with the XP earned in the period, with reason upgrade and a new review date', async () => {
    const { w, silver, gold } = await ladderWorld();
    await setTiers(w, { period: 'P1Y' });
    await earn(w, 600);
    expect((await customerOf(w)).tier).toEqual({ id: silver.id, tier_name: 'Silver' });
    const start = new Date();
    await earn(w, 400);
    const customer = await customerOf(w);
    expect(customer.tier).toEqual({ id: gold.id, tier_name: 'Gold' });
    expect([firstMonthlyReviewAfter(start, 12), firstMonthlyReviewAfter(new Date(), 12)]).toContain(customer.tier_valid_until);
    expect(await tierChanges(w.tenant.id, w.userId)).toEqual([
      { before: null, reason: 'upgrade' },
      { before: 'Silver', reason: 'upgrade' },
    ]);
  });

  it('one_step: at its review a customer whose period XP fell below its tier drops one tier, with reason review', async () => {
    const { w, silver } = await ladderWorld();
    await setTiers(w, { period: 'PT1H', downgrade: 'one_step' });
    await earn(w, 6000);
    const platinum = await customerOf(w);
    expect(platinum.tier?.tier_name).toBe('Platinum');
    // The first review whose period (an hour) starts after the upgrade: the next 1st of a month.
    expect(platinum.tier_valid_until).toBe(firstMonthlyReviewAfter(new Date(), 0, 3600));

    await runLotJobsAt(reviewAt(platinum.tier_valid_until));
    const gold = await customerOf(w);
    expect(gold.tier?.tier_name).toBe('Gold');
    expect(gold.tier_valid_until).toBe(firstMonthlyReviewAfter(new Date(Date.parse(platinum.tier_valid_until ?? '') + 1), 0, 3600));
    await runLotJobsAt(reviewAt(gold.tier_valid_until));
    expect((await customerOf(w)).tier).toEqual({ id: silver.id, tier_name: 'Silver' });
    expect(await tierChanges(w.tenant.id, w.userId)).toEqual([
      { before: null, reason: 'upgrade' },
      { before: 'Platinum', reason: 'review' },
      { before: 'Gold', reason: 'review' },
    ]);
  });

  it('recalculate drops to the tier the period XP places; none keeps the tier and moves its review on', async () => {
    const recalculate = await ladderWorld();
    await setTiers(recalculate.w, { period: 'PT1H', downgrade: 'recalculate' });
    await earn(recalculate.w, 6000);
    await runLotJobsAt(reviewAt((await customerOf(recalculate.w)).tier_valid_until));
    expect(await customerOf(recalculate.w)).toMatchObject({ tier: null, tier_valid_until: null, lifetime_xp: '6000' });

    const none = await ladderWorld();
    await setTiers(none.w, { period: 'PT1H', downgrade: 'none' });
    await earn(none.w, 1500);
    const held = await customerOf(none.w);
    await runLotJobsAt(reviewAt(held.tier_valid_until));
    const kept = await customerOf(none.w);
    expect(kept.tier).toEqual({ id: none.gold.id, tier_name: 'Gold' });
    expect(Date.parse(kept.tier_valid_until ?? '')).toBeGreaterThan(Date.parse(held.tier_valid_until ?? ''));
    expect(await tierChanges(none.w.tenant.id, none.w.userId)).toEqual([{ before: null, reason: 'upgrade' }]);
  });

  it('a customer whose period XP still reaches its tier keeps it at the review, valid one more period', async () => {
    const { w, gold } = await ladderWorld();
    const { review } = await goldDueWithCreditInItsPeriod(w);
    await runLotJobsAt(reviewAt(review));
    const kept = await customerOf(w);
    expect(kept.tier).toEqual({ id: gold.id, tier_name: 'Gold' });
    // The first review whose period (a month) starts at or after this review: the next month's.
    expect(kept.tier_valid_until).toBe(firstMonthlyReviewAfter(new Date(review), 1));
    expect(await tierChanges(w.tenant.id, w.userId)).toEqual([{ before: null, reason: 'upgrade' }]);
  });

  it('an upgrade and a review fired at once for one customer end as one of their two orders would', async () => {
    const { w } = await ladderWorld();
    await setTiers(w, { period: 'PT1H', downgrade: 'one_step' });
    await earn(w, 6000);
    const held = await customerOf(w);
    await Promise.all([earn(w, 6000), runLotJobsAt(reviewAt(held.tier_valid_until))]);
    const changes = await tierChanges(w.tenant.id, w.userId);
    const after = await customerOf(w);
    // Review first: Gold, then the earn's 12,000 XP in the hour raise it to Platinum again, with a new date.
    // Earn first: still Platinum (no higher tier), then the review judges the hour before its date: Gold.
    const orders = {
      reviewFirst: { changes: ['upgrade', 'review', 'upgrade'], tier: 'Platinum' },
      earnFirst: { changes: ['upgrade', 'review'], tier: 'Gold' },
    };
    expect(Object.values(orders)).toContainEqual({ changes: changes.map((change) => change.reason), tier: after.tier?.tier_name });
    expect(after.lifetime_xp).toBe('12000');
  });

  it('a cohort on the tier follows a held tier through its review', async () => {
    const { w, gold } = await ladderWorld();
    const cohort = await createCohort(w.tenant.owner, w.tenant.id, rulesOf('and', { type: 'tier', op: 'eq', value: gold.id }), 'Gold members');
    await setTiers(w, { period: 'PT1H', downgrade: 'recalculate', review: 'monthly' });
    await earn(w, 1500);
    expect(await memberIds(w.tenant.owner, w.tenant.id, cohort.id)).toEqual([w.userId]);
    await runLotJobsAt(reviewAt((await customerOf(w)).tier_valid_until));
    expect(await memberIds(w.tenant.owner, w.tenant.id, cohort.id)).toEqual([]);
  });

  it('XP taken back by a reversal no longer counts at the review', async () => {
    const { w } = await ladderWorld();
    const { review, credit } = await goldDueWithCreditInItsPeriod(w);
    const reversal = await gatewayCall(w.key, 'POST', `/api/v1/gateway/internal-transactions/${credit.id}/reverse`, { body: { amount: '200' } });
    expect(reversal.status, reversal.text).toBe(201);
    // A reversal never lowers a held tier: kept until the review, then placed by the 800 XP left in its period.
    expect((await customerOf(w)).tier?.tier_name).toBe('Gold');
    await runLotJobsAt(reviewAt(review));
    expect((await customerOf(w)).tier?.tier_name).toBe('Silver');
  });
});

describe('tiers on earned_in_period: the ladder and what reads the tier', () => {
  it('a ladder edit never lowers a held tier before its review; eligibility and a reward minimum follow the held tier', async () => {
    const { w, gold } = await ladderWorld();
    await setTiers(w, { period: 'P1Y' });
    await earn(w, 1200);
    const edit = { tier_name: 'Gold', min_xp_threshold: 3000, benefits_description: gold.benefits_description, color: gold.color, icon: gold.icon };
    const edited = await portalCall(w.tenant.owner, 'PUT', `/api/v1/tenant/${w.tenant.id}/tiers/${gold.id}`, edit);
    expect(edited.status, edited.text).toBeLessThan(300);
    expect((await customerOf(w)).tier).toEqual({ id: gold.id, tier_name: 'Gold' });
    const eligibility = await gatewayCall(w.key, 'GET', `/api/v1/gateway/customers/${w.userId}/tier/${gold.id}/eligibility`);
    expect(eligibility.body).toMatchObject({ data: { eligible: true } });
    const reward = await insertReward(w.tenant.id, { xpCost: 100, minTierId: gold.id });
    expectOk(await redeem(w.key, w.userId, reward.id), 201, redemptionSchema);
    const platinum = await insertReward(w.tenant.id, { xpCost: 100, minTierId: (await createTierViaApi(w.tenant.owner, w.tenant.id, 'Top', 4000)).id });
    expectError(await redeem(w.key, w.userId, platinum.id), 409, 'NOT_ELIGIBLE', /the tier the customer holds until its review is below it/);
  });

  it('a tier that customers hold cannot be deleted before their review (409)', async () => {
    const { w, gold } = await ladderWorld();
    await setTiers(w, { period: 'P1Y' });
    await earn(w, 1200);
    expectError(await portalCall(w.tenant.owner, 'DELETE', `/api/v1/tenant/${w.tenant.id}/tiers/${gold.id}`), 409, 'CONFLICT', /1 customer\(s\) hold the tier until their review/);
    expect((await customerOf(w)).tier?.id).toBe(gold.id);
  });

  it('a pending credit counts for the tier only once it completes', async () => {
    const { w } = await ladderWorld();
    const body = { timezone: 'UTC', points: { pending_period: 'PT1H' }, tiers: { basis: 'earned_in_period', period: 'P1Y', downgrade: 'one_step', review: 'monthly' } };
    expectOk(await portalCall(w.tenant.owner, 'PUT', `/api/v1/tenant/${w.tenant.id}/program-settings`, body), 200, programSettingsSchema);
    await earn(w, 1000);
    expect((await customerOf(w)).tier).toBeNull();
    await runLotJobsAt(Date.now() + 2 * 3_600_000);
    expect((await customerOf(w)).tier?.tier_name).toBe('Gold');
  });

  it('a tenant saved on earned_in_period before tier retention existed is brought in by the next job run', async () => {
    const { w, silver } = await ladderWorld();
    await earn(w, 700);
    await setTiers(w, { period: 'P1Y' });
    // As migration 0022 leaves such a tenant: no period parts, no review dates, customers placed by lifetime XP.
    await db(w.tenant.id).delete(tierReviewDates).where(eq(tierReviewDates.tenantId, w.tenant.id));
    await db(w.tenant.id).update(customers).set({ tierHeld: false, tierId: null, tierValidUntil: null }).where(eq(customers.tenantId, w.tenant.id));
    await db(w.tenant.id).update(programSettings).set({ tiersPeriodMonths: null, tiersPeriodSeconds: null }).where(eq(programSettings.tenantId, w.tenant.id));
    await runLotJobsAt(new Date());
    const [row] = await db(w.tenant.id).select().from(customers).where(eq(customers.id, w.userId));
    expect(row).toMatchObject({ tierHeld: true, tierId: silver.id, tierValidUntil: expect.any(String) });
    const dates = await db(w.tenant.id).select().from(tierReviewDates).where(eq(tierReviewDates.tenantId, w.tenant.id));
    expect(dates.length).toBeGreaterThan(12 * 10);
  });
});
