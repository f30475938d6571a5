import { describe, expect, it } from 'vitest';
import { DEFAULT_PROGRAM_SETTINGS } from '../../src/domain/program-settings';
import { reviewCalendar, reviewDates, tierPeriodParts } from '../../src/domain/tier-reviews';

/** Tiers on XP earned in a period, the pure parts (src/domain/tier-reviews.ts). */

describe('tierPeriodParts', () => {
  it('reads a period as months (years too) and seconds (weeks, days and time), as the SQL counts back', () => {
    expect(tierPeriodParts('P1Y6M')).toEqual({ tiersPeriodMonths: 18, tiersPeriodSeconds: 0 });
    expect(tierPeriodParts('P2W3DT4H5M6S')).toEqual({ tiersPeriodMonths: 0, tiersPeriodSeconds: 17 * 86_400 + 4 * 3600 + 5 * 60 + 6 });
    expect(tierPeriodParts('PT10S')).toEqual({ tiersPeriodMonths: 0, tiersPeriodSeconds: 10 });
    expect(tierPeriodParts(null)).toEqual({ tiersPeriodMonths: null, tiersPeriodSeconds: null });
  });
});

describe('reviewDates', () => {
  const from = new Date('2026-11-27T10:00:00Z');

  it('monthly: the first instant of each month after `from`, with the start of the period before it', () => {
    const dates = reviewDates(from, new Date('2027-02-01T00:00:00Z'), { tiersReview: 'monthly', tiersPeriod: 'P1M', timezone: 'UTC' });
    expect(dates).toEqual([
      { reviewAt: '2026-12-01T00:00:00.000Z', windowStart: '2026-11-01T00:00:00.000Z' },
      { reviewAt: '2027-01-01T00:00:00.000Z', windowStart: '2026-12-01T00:00:00.000Z' },
      { reviewAt: '2027-02-01T00:00:00.000Z', windowStart: '2027-01-01T00:00:00.000Z' },
    ]);
  });

  it("quarterly and yearly reviews fall on the tenant's midnight of January, April, July and October 1st (DST included)", () => {
    const quarterly = reviewDates(from, new Date('2027-12-31T00:00:00Z'), { tiersReview: 'quarterly', tiersPeriod: 'P3M', timezone: 'Europe/Berlin' });
    expect(quarterly).toEqual([
      // Midnight in Berlin: CET (+01:00) in winter, CEST (+02:00) in summer; the period starts at the local midnight 3 months before.
      { reviewAt: '2026-12-31T23:00:00.000Z', windowStart: '2026-09-30T22:00:00.000Z' },
      { reviewAt: '2027-03-31T22:00:00.000Z', windowStart: '2026-12-31T23:00:00.000Z' },
      { reviewAt: '2027-06-30T22:00:00.000Z', windowStart: '2027-03-31T22:00:00.000Z' },
      { reviewAt: '2027-09-30T22:00:00.000Z', windowStart: '2027-06-30T22:00:00.000Z' },
    ]);
    const yearly = reviewDates(from, new Date('2029-06-01T00:00:00Z'), { tiersReview: 'yearly', tiersPeriod: 'P1Y', timezone: 'America/New_York' });
    expect(yearly.map((date) => date.reviewAt)).toEqual(['2027-01-01T05:00:00.000Z', '2028-01-01T05:00:00.000Z', '2029-01-01T05:00:00.000Z']);
  });

  it('a review exactly at `from` is not after it', () => {
    const dates = reviewDates(new Date('2026-12-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z'), { tiersReview: 'monthly', tiersPeriod: 'PT1H', timezone: 'UTC' });
    expect(dates.map((date) => date.reviewAt)).toEqual(['2027-01-01T00:00:00.000Z']);
  });
});

describe('reviewCalendar', () => {
  it('none on lifetime XP; on earned_in_period ten years beyond the period', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    expect(reviewCalendar(now, { ...DEFAULT_PROGRAM_SETTINGS })).toEqual([]);
    const calendar = reviewCalendar(now, { ...DEFAULT_PROGRAM_SETTINGS, tiersBasis: 'earned_in_period', tiersPeriod: 'P1Y', tiersReview: 'yearly' });
    expect(calendar.map((date) => date.reviewAt.slice(0, 4))).toEqual(['2027', '2028', '2029', '2030', '2031', '2032', '2033', '2034', '2035', '2036', '2037']);
  });
});
