import type { ProgramSettingsRow } from '../db/schema';
import { ApiError } from '../lib/errors';
import { BoundedMap } from '../lib/bounded-map';
import type { LimitPeriod } from './earning-limits';

/**
 * Program settings (CONTRACT.md, Program settings) and the calendar they imply: the tenant's time
 * zone decides which day, week (from Monday), month and year an instant falls in. Pure: `Intl`
 * carries the IANA zone database in every runtime the Worker and its tests run in.
 */

/** A tenant's program settings as the engine reads them: the row's fields, without its keys and times. */
export type ProgramSettings = Omit<ProgramSettingsRow, 'tenantId' | 'createdAt' | 'updatedAt'>;

/** What a tenant that never saved its settings has: today's behaviour (no pending period, no expiry, tiers on lifetime XP). */
export const DEFAULT_PROGRAM_SETTINGS: Readonly<ProgramSettings> = {
  timezone: 'UTC',
  pointsPendingPeriod: null,
  pointsValidity: null,
  pointsExpiryRounding: 'none',
  pointsExpiryNotice: null,
  tiersBasis: 'lifetime',
  tiersPeriod: null,
  tiersPeriodMonths: null,
  tiersPeriodSeconds: null,
  tiersDowngrade: 'none',
  tiersReview: 'yearly',
};

/** What the request's schema cannot see: tiers on XP earned in a period need the period. */
export function checkProgramSettings(settings: ProgramSettings): void {
  if (settings.tiersBasis === 'earned_in_period' && settings.tiersPeriod === null) {
    throw new ApiError('VALIDATION_FAILED', 'Tiers on earned_in_period need a period (an ISO 8601 duration)', { path: 'tiers.period' });
  }
}

const DURATION = /^P(?!$)(?:(\d{1,4})Y)?(?:(\d{1,5})M)?(?:(\d{1,5})W)?(?:(\d{1,6})D)?(?:T(?!$)(?:(\d{1,7})H)?(?:(\d{1,9})M)?(?:(\d{1,10})S)?)?$/;
export type DurationParts = { years: number; months: number; weeks: number; days: number; hours: number; minutes: number; seconds: number };
const MIN_SECONDS = 10;
const MAX_SECONDS = 10 * 365 * 86_400;

/** The parts of an ISO 8601 duration as the settings accept it (`P1Y2M3W4DT5H6M7S`, any subset), absent ones 0; or undefined. */
export function parseDuration(duration: string): DurationParts | undefined {
  const match = DURATION.exec(duration);
  if (!match) return undefined;
  const part = (group: number) => Number(match[group] ?? 0);
  return { years: part(1), months: part(2), weeks: part(3), days: part(4), hours: part(5), minutes: part(6), seconds: part(7) };
}

/** Nominal length in seconds (a year 365 days, a month 30) of an ISO 8601 duration, or undefined. */
export function nominalSeconds(duration: string): number | undefined {
  const p = parseDuration(duration);
  return p && (((p.years * 365 + p.months * 30 + p.weeks * 7 + p.days) * 24 + p.hours) * 60 + p.minutes) * 60 + p.seconds;
}

/** PT10S to P10Y (CONTRACT.md), measured nominally. */
export function isIsoDurationInRange(duration: string): boolean {
  const seconds = nominalSeconds(duration);
  return seconds !== undefined && seconds >= MIN_SECONDS && seconds <= MAX_SECONDS;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` to the second (read by parts: `localDate` here, offsets in point-terms.ts). */
export function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    // A few hundred zones exist; the map stays small.
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** An IANA zone name `Intl` knows (`UTC` included); offsets like `+02:00` are not zones. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(value) || value.length > 64) return false;
  try {
    zoneFormat(value);
    return true;
  } catch {
    return false;
  }
}

type LocalDate = { year: number; month: number; day: number };

/**
 * Every zone's offset today (events are at most 30 days old), and every change of it, falls on a
 * quarter hour: all instants of one quarter hour share their local date. `formatToParts` is slow
 * next to an event's other work, so dates are remembered per zone and quarter hour.
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const datesByQuarter = new BoundedMap<string, LocalDate>(1_000);

/** The calendar date of `instant` in `timeZone`. */
export function localDate(instant: Date, timeZone: string): LocalDate {
  const quarter = `${timeZone} ${Math.floor(instant.getTime() / QUARTER_HOUR_MS)}`;
  const known = datesByQuarter.get(quarter);
  if (known) return known;
  const parts = zoneFormat(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const date = { year: part('year'), month: part('month'), day: part('day') };
  datesByQuarter.set(quarter, date);
  return date;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The keys of the periods that contain `instant` in `timeZone`, by period: `day:2026-11-26`,
 * `week:2026-11-23` (its Monday), `month:2026-11`, `year:2026`, `lifetime`. The local date is
 * read once, on the first key asked for.
 */
export function periodKeys(instant: Date, timeZone: string): (period: LimitPeriod) => string {
  let date: LocalDate | undefined;
  return (period) => {
    if (period === 'lifetime') return 'lifetime';
    const { year, month, day } = (date ??= localDate(instant, timeZone));
    switch (period) {
      case 'year':
        return `year:${pad(year, 4)}`;
      case 'month':
        return `month:${pad(year, 4)}-${pad(month)}`;
      case 'day':
        return `day:${pad(year, 4)}-${pad(month)}-${pad(day)}`;
      case 'week': {
        const monday = new Date(Date.UTC(year, month - 1, day));
        monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
        return `week:${monday.toISOString().slice(0, 10)}`;
      }
    }
  };
}
