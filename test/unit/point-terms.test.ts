import { describe, expect, it } from 'vitest';
import { addDuration, lotTerms, roundUpExpiry, subtractDuration } from '../../src/domain/point-terms';
import { DEFAULT_PROGRAM_SETTINGS, nominalSeconds, parseDuration } from '../../src/domain/program-settings';

// 2026: New York springs forward on March 8 (02:00 EST -> 03:00 EDT, 07:00Z) and falls back on
// November 1 (02:00 EDT -> 01:00 EST, 06:00Z); London on March 29 (01:00Z); Lord Howe Island
// (+10:30, +11:00 in summer) falls back on April 5 (15:00Z the day before) and springs forward
// half an hour on October 4 (15:30Z the day before).
const NEW_YORK = 'America/New_York';
const TOKYO = 'Asia/Tokyo';
const LORD_HOWE = 'Australia/Lord_Howe';

const add = (from: string, duration: string, zone: string) => addDuration(new Date(from), duration, zone).toISOString();
const roundUp = (from: string, rounding: Parameters<typeof roundUpExpiry>[1], zone: string) => roundUpExpiry(new Date(from), rounding, zone).toISOString();

describe('durations', () => {
  it('parse into their parts, and their nominal length follows', () => {
    expect(parseDuration('P1Y2M3W4DT5H6M7S')).toEqual({ years: 1, months: 2, weeks: 3, days: 4, hours: 5, minutes: 6, seconds: 7 });
    expect(parseDuration('PT10S')).toEqual({ years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 10 });
    expect([parseDuration('P'), parseDuration('P1DT'), parseDuration('1D')]).toEqual([undefined, undefined, undefined]);
    expect([nominalSeconds('P1Y'), nominalSeconds('P1M'), nominalSeconds('P1DT2H'), nominalSeconds('x')]).toEqual([31_536_000, 2_592_000, 93_600, undefined]);
  });

  it.each([
    ['PT10S across the spring-forward gap is elapsed time', '2026-03-08T06:59:55.123Z', 'PT10S', NEW_YORK, '2026-03-08T07:00:05.123Z'],
    ['P1D keeps the wall clock over spring-forward (23 hours)', '2026-03-07T17:00:00.000Z', 'P1D', NEW_YORK, '2026-03-08T16:00:00.000Z'],
    ['P1D keeps the wall clock over fall-back (25 hours)', '2026-10-31T16:00:00.000Z', 'P1D', NEW_YORK, '2026-11-01T17:00:00.000Z'],
    ['P1D onto a time the clocks skip moves forward by the gap (02:30 -> 03:30 EDT)', '2026-03-07T07:30:00.000Z', 'P1D', NEW_YORK, '2026-03-08T07:30:00.000Z'],
    ['P1D onto a time the clocks show twice takes the first (01:30 EDT)', '2026-10-31T05:30:00.000Z', 'P1D', NEW_YORK, '2026-11-01T05:30:00.000Z'],
    ['P1D onto a skipped half hour on Lord Howe (02:15 -> 02:45)', '2026-10-02T15:45:00.000Z', 'P1D', LORD_HOWE, '2026-10-03T15:45:00.000Z'],
    ['P1M from Jan 31 clamps to Feb 28', '2026-01-31T10:00:00.000Z', 'P1M', 'UTC', '2026-02-28T10:00:00.000Z'],
    ['P1M from Jan 31 clamps to Feb 29 in a leap year', '2028-01-31T10:00:00.000Z', 'P1M', 'UTC', '2028-02-29T10:00:00.000Z'],
    ['P1M from Jan 31 in Tokyo (Jan 30 in UTC) is Feb 28 in Tokyo', '2026-01-30T15:00:00.000Z', 'P1M', TOKYO, '2026-02-27T15:00:00.000Z'],
    ['P1Y from Feb 29 is Feb 28', '2028-02-29T12:00:00.000Z', 'P1Y', 'UTC', '2029-02-28T12:00:00.000Z'],
    ['P2W over spring-forward keeps noon', '2026-03-01T17:00:00.000Z', 'P2W', NEW_YORK, '2026-03-15T16:00:00.000Z'],
    ['P1DT2H: the day on the calendar, then two elapsed hours (04:00 EDT, not 03:00)', '2026-03-07T06:00:00.000Z', 'P1DT2H', NEW_YORK, '2026-03-08T08:00:00.000Z'],
    ['P1M over the year end', '2026-12-31T12:00:00.000Z', 'P1M', 'UTC', '2027-01-31T12:00:00.000Z'],
  ])('%s', (_name, from, duration, zone, expected) => {
    expect(add(from, duration, zone)).toBe(expected);
  });

  it('subtract on the calendar too', () => {
    expect(subtractDuration(new Date('2026-03-10T04:00:00.000Z'), 'P7D', NEW_YORK).toISOString()).toBe('2026-03-03T05:00:00.000Z');
    expect(subtractDuration(new Date('2026-03-31T12:00:00.000Z'), 'P1M', 'UTC').toISOString()).toBe('2026-02-28T12:00:00.000Z');
    // Calendar first, then elapsed time (as Temporal): 04:00 EDT - P1D = 04:00 EST, - PT2H = 02:00 EST.
    expect(subtractDuration(new Date('2026-03-08T08:00:00.000Z'), 'P1DT2H', NEW_YORK).toISOString()).toBe('2026-03-07T07:00:00.000Z');
  });

  it('refuses a duration the settings would not have stored', () => {
    expect(() => addDuration(new Date(), 'P1.5D', 'UTC')).toThrow('Not an ISO 8601 duration: P1.5D');
  });
});

describe('expiry rounding', () => {
  it.each([
    ['end_of_day on the spring-forward day ends at midnight EDT', '2026-03-08T10:00:00.000Z', 'end_of_day', NEW_YORK, '2026-03-09T04:00:00.000Z'],
    ['end_of_day the evening before it ends at midnight EST', '2026-03-08T04:00:00.000Z', 'end_of_day', NEW_YORK, '2026-03-08T05:00:00.000Z'],
    ['end_of_day within the repeated hour of fall-back ends at midnight EST', '2026-11-01T06:30:00.000Z', 'end_of_day', NEW_YORK, '2026-11-02T05:00:00.000Z'],
    ['end_of_month in EST ends at April 1 EDT', '2026-03-05T12:00:00.000Z', 'end_of_month', NEW_YORK, '2026-04-01T04:00:00.000Z'],
    ['end_of_month in December ends at Jan 1 next year', '2026-12-31T17:00:00.000Z', 'end_of_month', NEW_YORK, '2027-01-01T05:00:00.000Z'],
    ['end_of_year in EDT ends at Jan 1 EST', '2026-07-01T12:00:00.000Z', 'end_of_year', NEW_YORK, '2027-01-01T05:00:00.000Z'],
    ['end_of_year on Dec 31 local (Jan 1 in UTC)', '2027-01-01T04:30:00.000Z', 'end_of_year', NEW_YORK, '2027-01-01T05:00:00.000Z'],
    ['end_of_day in Tokyo', '2026-05-10T14:59:59.999Z', 'end_of_day', TOKYO, '2026-05-10T15:00:00.000Z'],
    ['end_of_month in Tokyo (still May in UTC)', '2026-05-31T15:30:00.000Z', 'end_of_month', TOKYO, '2026-06-30T15:00:00.000Z'],
    ['end_of_year in Tokyo (still 2026 in UTC)', '2026-12-31T16:00:00.000Z', 'end_of_year', TOKYO, '2027-12-31T15:00:00.000Z'],
    ['end_of_day in UTC', '2026-05-10T12:34:56.789Z', 'end_of_day', 'UTC', '2026-05-11T00:00:00.000Z'],
    ['end_of_month in December in UTC', '2026-12-15T08:00:00.000Z', 'end_of_month', 'UTC', '2027-01-01T00:00:00.000Z'],
    ['end_of_year in UTC', '2026-03-01T00:00:00.001Z', 'end_of_year', 'UTC', '2027-01-01T00:00:00.000Z'],
    ['end_of_day on the day London springs forward', '2026-03-29T12:00:00.000Z', 'end_of_day', 'Europe/London', '2026-03-29T23:00:00.000Z'],
    ['end_of_day on the 24.5-hour day Lord Howe falls back', '2026-04-05T01:00:00.000Z', 'end_of_day', LORD_HOWE, '2026-04-05T13:30:00.000Z'],
    ['none leaves the instant', '2026-05-10T12:34:56.789Z', 'none', NEW_YORK, '2026-05-10T12:34:56.789Z'],
  ] as const)('%s', (_name, from, rounding, zone, expected) => {
    expect(roundUp(from, rounding, zone)).toBe(expected);
  });

  it.each([
    ['local midnight in New York', '2026-03-08T05:00:00.000Z', 'end_of_day', NEW_YORK],
    ['local midnight in Tokyo', '2026-05-10T15:00:00.000Z', 'end_of_day', TOKYO],
    ['UTC midnight', '2026-05-11T00:00:00.000Z', 'end_of_day', 'UTC'],
    ['the first instant of a month', '2026-04-01T04:00:00.000Z', 'end_of_month', NEW_YORK],
    ['the first instant of a year', '2026-12-31T15:00:00.000Z', 'end_of_year', TOKYO],
  ] as const)('an instant already at a boundary stays: %s', (_name, at, rounding, zone) => {
    expect(roundUp(at, rounding, zone)).toBe(at);
  });
});

describe('lot terms', () => {
  const settings = { ...DEFAULT_PROGRAM_SETTINGS, timezone: NEW_YORK };

  it('without settings the points are spendable at once and never expire', () => {
    expect(lotTerms(new Date('2026-03-08T06:30:00.123Z'), DEFAULT_PROGRAM_SETTINGS)).toEqual({ availableAt: '2026-03-08T06:30:00.123Z', expiresAt: null, noticeAt: null });
    expect(lotTerms(new Date('2026-03-08T06:30:00.123Z'), { ...settings, pointsPendingPeriod: 'P1D', pointsExpiryNotice: 'P7D' })).toEqual({
      availableAt: '2026-03-09T05:30:00.123Z',
      expiresAt: null,
      noticeAt: null,
    });
  });

  it('pending, validity, rounding and notice all on the tenant calendar', () => {
    const terms = lotTerms(new Date('2026-01-31T15:00:00.000Z'), {
      ...settings,
      pointsPendingPeriod: 'P1D',
      pointsValidity: 'P1M',
      pointsExpiryRounding: 'end_of_month',
      pointsExpiryNotice: 'P7D',
    });
    // Available Feb 1 10:00 EST; + P1M = Mar 1, rounded to April 1 00:00 EDT; notice a week before.
    expect(terms).toEqual({ availableAt: '2026-02-01T15:00:00.000Z', expiresAt: '2026-04-01T04:00:00.000Z', noticeAt: '2026-03-25T04:00:00.000Z' });
  });

  it('expiry without a notice has no notice time', () => {
    expect(lotTerms(new Date('2026-05-10T12:00:00.000Z'), { ...settings, pointsValidity: 'P1Y' })).toEqual({
      availableAt: '2026-05-10T12:00:00.000Z',
      expiresAt: '2027-05-10T12:00:00.000Z',
      noticeAt: null,
    });
  });

  it('a notice that would precede the points becoming spendable is sent when they do', () => {
    const terms = lotTerms(new Date('2026-05-10T12:00:00.000Z'), { ...settings, pointsPendingPeriod: 'PT1H', pointsValidity: 'PT2H', pointsExpiryNotice: 'P1D' });
    expect(terms).toEqual({ availableAt: '2026-05-10T13:00:00.000Z', expiresAt: '2026-05-10T15:00:00.000Z', noticeAt: '2026-05-10T13:00:00.000Z' });
  });
});
