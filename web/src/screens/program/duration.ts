/**
 * The program settings' durations as a person edits them: a whole number and a unit, "off" (null),
 * or, for a value of several parts saved through the API (`P1DT12H`), the ISO 8601 text as it is.
 * A value is never converted between units: a month is a calendar month to the lifecycle, not 30 days.
 */
import { isIsoDurationInRange } from '../../../../src/domain/program-settings';

const units = {
  seconds: { one: 'second', iso: (n: string) => `PT${n}S` },
  minutes: { one: 'minute', iso: (n: string) => `PT${n}M` },
  hours: { one: 'hour', iso: (n: string) => `PT${n}H` },
  days: { one: 'day', iso: (n: string) => `P${n}D` },
  weeks: { one: 'week', iso: (n: string) => `P${n}W` },
  months: { one: 'month', iso: (n: string) => `P${n}M` },
  years: { one: 'year', iso: (n: string) => `P${n}Y` },
} as const;

export type DurationUnit = keyof typeof units;
export const durationUnits = Object.keys(units) as DurationUnit[];

/** `amount` is the number of `unit`s, or with `iso` the ISO 8601 text itself. */
export type DurationDraft = { unit: DurationUnit | 'off' | 'iso'; amount: string };

const byDesignator: Record<string, DurationUnit> = { Y: 'years', M: 'months', W: 'weeks', D: 'days' };
const byTimeDesignator: Record<string, DurationUnit> = { H: 'hours', M: 'minutes', S: 'seconds' };

export function durationDraft(value: string | null): DurationDraft {
  if (value === null) return { unit: 'off', amount: '' };
  const date = /^P(\d+)([YMWD])$/.exec(value);
  const time = /^PT(\d+)([HMS])$/.exec(value);
  const unit = date ? byDesignator[date[2] ?? ''] : time ? byTimeDesignator[time[2] ?? ''] : undefined;
  const amount = date?.[1] ?? time?.[1];
  return unit && amount ? { unit, amount: String(Number(amount)) } : { unit: 'iso', amount: value };
}

/** The value the API gets, or why there is none (the API's own range: PT10S to P10Y). */
export function durationValue(draft: DurationDraft): { ok: true; value: string | null } | { ok: false; message: string } {
  if (draft.unit === 'off') return { ok: true, value: null };
  const amount = draft.amount.trim();
  if (draft.unit === 'iso') {
    return isIsoDurationInRange(amount) ? { ok: true, value: amount } : { ok: false, message: 'An ISO 8601 duration from PT10S to P10Y, e.g. P30D.' };
  }
  if (!/^[1-9]\d{0,9}$/.test(amount)) return { ok: false, message: 'A whole number from 1.' };
  const value = units[draft.unit].iso(amount);
  return isIsoDurationInRange(value) ? { ok: true, value } : { ok: false, message: 'From 10 seconds to 10 years.' };
}

export function unitLabel(unit: DurationUnit, amount: string): string {
  return amount === '1' ? units[unit].one : unit;
}

/** "14 days (P14D)"; a value of several parts as it is; null as `off`. */
export function describeDuration(value: string | null, off: string): string {
  const draft = durationDraft(value);
  if (draft.unit === 'off') return off;
  if (draft.unit === 'iso') return draft.amount;
  return `${draft.amount} ${unitLabel(draft.unit, draft.amount)} (${value})`;
}
