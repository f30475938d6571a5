import type { TierReview } from '../db/schema';
import { addDuration, roundUpExpiry, subtractDuration } from './point-terms';
import { localDate, parseDuration, type ProgramSettings } from './program-settings';

/**
 * Tiers on XP earned in a period (docs/POINTS.md, "Tiers on XP earned in a period"): the period as
 * SQLite's date arithmetic reads it, and the tenant's review dates. Pure.
 */

/** `tiers_period` as whole months (years too) and seconds (weeks, days and time), how src/db/sql/tier-retention.sql counts back. */
export function tierPeriodParts(period: string | null): { tiersPeriodMonths: number | null; tiersPeriodSeconds: number | null } {
  const parts = period === null ? undefined : parseDuration(period);
  if (!parts) return { tiersPeriodMonths: null, tiersPeriodSeconds: null };
  const { years, months, weeks, days, hours, minutes, seconds } = parts;
  return { tiersPeriodMonths: years * 12 + months, tiersPeriodSeconds: (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds };
}

const MONTHS_BETWEEN_REVIEWS: Record<TierReview, number> = { monthly: 1, quarterly: 3, yearly: 12 };

export type ReviewDate = { reviewAt: string; windowStart: string };

/**
 * The review dates after `from` up to `until`: the first instant of each month, quarter (January,
 * April, July, October) or year in `timeZone`, each with the start of its period (the review
 * minus `period` on the same calendar).
 */
export function reviewDates(from: Date, until: Date, settings: { tiersReview: TierReview; tiersPeriod: string; timezone: string }): ReviewDate[] {
  const every = MONTHS_BETWEEN_REVIEWS[settings.tiersReview];
  const dates: ReviewDate[] = [];
  for (let month = roundUpExpiry(new Date(from.getTime() + 1), 'end_of_month', settings.timezone); month <= until; ) {
    if ((localDate(month, settings.timezone).month - 1) % every === 0) {
      dates.push({ reviewAt: month.toISOString(), windowStart: subtractDuration(month, settings.tiersPeriod, settings.timezone).toISOString() });
    }
    month = roundUpExpiry(new Date(month.getTime() + 1), 'end_of_month', settings.timezone);
  }
  return dates;
}

/** Review dates are written this far beyond a tier reached now could last (and topped up by the review job halfway). */
const CALENDAR_AHEAD = 'P10Y';
export const CALENDAR_TOP_UP_WITHIN = 'P5Y';

/** The review dates a tenant's settings need from `now` on: none unless tiers are on earned_in_period. */
export function reviewCalendar(now: Date, settings: ProgramSettings): ReviewDate[] {
  const { tiersBasis, tiersPeriod, tiersReview, timezone } = settings;
  if (tiersBasis !== 'earned_in_period' || tiersPeriod === null) return [];
  const until = addDuration(addDuration(now, tiersPeriod, timezone), CALENDAR_AHEAD, timezone);
  return reviewDates(now, until, { tiersReview, tiersPeriod, timezone });
}
