import { BoundedMap } from '../lib/bounded-map';
import { parseDuration, zoneFormat, type ProgramSettings } from './program-settings';

/**
 * A credit's terms (CONTRACT.md, Point lifecycle): when its points become spendable, when they
 * expire and when the customer is told. Years, months, weeks and days move the wall clock of the
 * tenant's time zone, as a person reads "in one month" or "at the end of the day"; hours, minutes
 * and seconds are elapsed time. Pure: `Intl` carries the zone database.
 */

export type LotTerms = { availableAt: string; expiresAt: string | null; noticeAt: string | null };

type TermSettings = Pick<ProgramSettings, 'timezone' | 'pointsPendingPeriod' | 'pointsValidity' | 'pointsExpiryRounding' | 'pointsExpiryNotice'>;
type ExpiryRounding = ProgramSettings['pointsExpiryRounding'];

/** When a credit made at `now` becomes spendable, expires (at `expiry` when it brings one) and is announced, under the tenant's settings. */
export function lotTerms(now: Date, settings: TermSettings, expiry?: Date): LotTerms {
  const { timezone, pointsPendingPeriod, pointsValidity, pointsExpiryNotice } = settings;
  const availableAt = pointsPendingPeriod ? addDuration(now, pointsPendingPeriod, timezone) : now;
  // `expiry`: an expiry the credit brings with it (an imported opening balance), in place of the settings'.
  const expiresAt = expiry ?? (pointsValidity ? roundUpExpiry(addDuration(availableAt, pointsValidity, timezone), settings.pointsExpiryRounding, timezone) : null);
  // A notice longer than the points' spendable life goes out when they become spendable, not before.
  const noticeAt = expiresAt && pointsExpiryNotice ? laterOf(subtractDuration(expiresAt, pointsExpiryNotice, timezone), availableAt) : null;
  return { availableAt: availableAt.toISOString(), expiresAt: expiresAt?.toISOString() ?? null, noticeAt: noticeAt?.toISOString() ?? null };
}

/**
 * Adds an ISO 8601 duration to an instant: years, months, weeks and days on the calendar of
 * `timeZone` (wall clock kept, the day clamped to the month's last: Jan 31 + P1M = Feb 28/29),
 * then hours, minutes and seconds as elapsed time.
 */
export function addDuration(instant: Date, duration: string, timeZone: string): Date {
  return shift(instant, duration, timeZone, 1);
}

/** Subtracts a duration the same way (for the expiry notice: expiresAt - notice). */
export function subtractDuration(instant: Date, duration: string, timeZone: string): Date {
  return shift(instant, duration, timeZone, -1);
}

/**
 * Rounds up to the end of the local day / month / year in `timeZone`, that is the first instant of
 * the next one; an instant already exactly at such a boundary stays. 'none' returns it unchanged.
 */
export function roundUpExpiry(instant: Date, rounding: ExpiryRounding, timeZone: string): Date {
  if (rounding === 'none') return instant;
  const [start, next] = periodBounds(new Date(wallClock(instant.getTime(), timeZone)), rounding);
  // Compared as instants, not wall clocks: where clocks skip midnight, a day starts at 01:00.
  if (fromWallClock(start, timeZone) === instant.getTime()) return instant;
  return new Date(fromWallClock(next, timeZone));
}

const SECOND_MS = 1_000;
const DAY_MS = 86_400_000;

function shift(instant: Date, duration: string, timeZone: string, sign: 1 | -1): Date {
  const parts = parseDuration(duration);
  // Settings are checked when saved: an unreadable one here is a bug, not the caller's mistake.
  if (!parts) throw new Error(`Not an ISO 8601 duration: ${duration}`);
  const { years, months, weeks, days, hours, minutes, seconds } = parts;
  let ms = instant.getTime();
  if (years || months || weeks || days) {
    const wall = moveCalendar(wallClock(ms, timeZone), sign * (years * 12 + months), sign * (weeks * 7 + days));
    ms = fromWallClock(wall, timeZone);
  }
  return new Date(ms + sign * ((hours * 60 + minutes) * 60 + seconds) * SECOND_MS);
}

/**
 * A wall clock is a local date and time written as if it were UTC, in milliseconds, so the UTC
 * methods of `Date` do its calendar arithmetic. Months move first and clamp the day to the target
 * month's length (as Temporal does), days after.
 */
function moveCalendar(wall: number, monthCount: number, dayCount: number): number {
  const date = new Date(wall);
  const monthIndex = date.getUTCFullYear() * 12 + date.getUTCMonth() + monthCount;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const timeOfDay = wall - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay) + dayCount) + timeOfDay;
}

/** The wall clocks where the current local day / month / year starts and where the next one does. */
function periodBounds(wall: Date, rounding: Exclude<ExpiryRounding, 'none'>): [number, number] {
  const [year, month, day] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
  switch (rounding) {
    case 'end_of_day':
      return [Date.UTC(year, month, day), Date.UTC(year, month, day + 1)];
    case 'end_of_month':
      return [Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1)];
    case 'end_of_year':
      return [Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1)];
  }
}

function wallClock(instant: number, timeZone: string): number {
  return instant + zoneOffset(instant, timeZone);
}

/**
 * The instant at which `timeZone`'s clocks show `wall`. No zone changes its offset twice within
 * two days, so the offsets a day either side give every candidate. A time shown twice (clocks
 * going back) is the first time it is shown; a time never shown (clocks going forward) is read
 * with the offset before the change, which moves it forward by the gap (02:30 on a
 * spring-forward night is 03:30). Both as Temporal's 'compatible' disambiguation.
 */
function fromWallClock(wall: number, timeZone: string): number {
  const withOffsetBefore = wall - zoneOffset(wall - DAY_MS, timeZone);
  const withOffsetAfter = wall - zoneOffset(wall + DAY_MS, timeZone);
  if (withOffsetBefore === withOffsetAfter || wallClock(withOffsetBefore, timeZone) === wall) return withOffsetBefore;
  return wallClock(withOffsetAfter, timeZone) === wall ? withOffsetAfter : withOffsetBefore;
}

/**
 * Every zone's offset today, and every change of it, falls on a quarter hour (as `localDate`
 * assumes): one offset holds for a whole quarter hour, remembered per zone, because
 * `formatToParts` is slow next to a credit's other work and one term reads several offsets.
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const offsetsByQuarter = new BoundedMap<string, number>(1_000);

/** How far the wall clock of `timeZone` is ahead of UTC at `instant`, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const quarter = Math.floor(instant / QUARTER_HOUR_MS);
  const key = `${timeZone} ${quarter}`;
  const known = offsetsByQuarter.get(key);
  if (known !== undefined) return known;
  const start = quarter * QUARTER_HOUR_MS;
  const parts = zoneFormat(timeZone).formatToParts(start);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const offset = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - start;
  offsetsByQuarter.set(key, offset);
  return offset;
}

function laterOf(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? a : b;
}
