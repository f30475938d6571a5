import type { AttributeType } from '../db/schema';

/**
 * Customer attribute rules (CONTRACT.md, Attributes and cohorts): key normalization, value checks
 * per type, and how a stored value is stored and rendered. Values are stored so that SQL compares
 * them by type: numbers and booleans (0/1) in `value_number`; strings, `YYYY-MM-DD` dates, UTC ISO
 * datetimes (fixed width, so they sort as text) and string lists (JSON array) in `value_text`.
 * How they are rendered is views/attribute.ts.
 */

export const ATTRIBUTE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_STRING_VALUE_LENGTH = 1024;
export const MAX_LIST_ITEMS = 100;

/** "Favorite Color", "favoriteColor" and "favorite-color" all become "favorite_color". */
export function normalizeAttributeKey(raw: string): string {
  return raw
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

export type StoredValue = { valueText: string | null; valueNumber: number | null };
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });

const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A datetime needs a time and an explicit offset: a zone-less time would be ambiguous. */
const DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

export function parseNumber(raw: unknown): Parsed<number> {
  const value = typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : raw;
  return typeof value === 'number' && Number.isFinite(value) ? ok(value) : fail('Expected a number');
}

export function parseBoolean(raw: unknown): Parsed<boolean> {
  if (typeof raw === 'boolean') return ok(raw);
  return raw === 'true' || raw === 'false' ? ok(raw === 'true') : fail('Expected a boolean');
}

export function parseDate(raw: unknown): Parsed<string> {
  const match = typeof raw === 'string' ? DATE.exec(raw) : null;
  if (!match) return fail('Expected a date (YYYY-MM-DD)');
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  return real ? ok(raw as string) : fail('Expected a calendar date (YYYY-MM-DD)');
}

/** Normalized to UTC `YYYY-MM-DDTHH:mm:ss.sssZ` so that text order is time order. */
export function parseDatetime(raw: unknown): Parsed<string> {
  const match = typeof raw === 'string' ? DATETIME.exec(raw) : null;
  if (!match) return fail('Expected an ISO 8601 datetime with an offset');
  // `new Date` rolls impossible values over (Feb 30 -> Mar 1, 24:00 -> next day): refuse them instead.
  const [, day, hours, minutes, seconds = '0', offsetHours = '0', offsetMinutes = '0'] = match;
  const inRange = Number(hours) < 24 && Number(minutes) < 60 && Number(seconds) < 60 && Number(offsetHours) < 24 && Number(offsetMinutes) < 60;
  if (!inRange || !parseDate(day).ok) return fail('Expected a real calendar datetime (ISO 8601 with an offset)');
  const time = new Date(match[0]);
  const iso = Number.isNaN(time.getTime()) ? '' : time.toISOString();
  return /^\d{4}-/.test(iso) ? ok(iso) : fail('Expected an ISO 8601 datetime between years 0000 and 9999');
}

export function parseString(raw: unknown): Parsed<string> {
  if (typeof raw !== 'string') return fail('Expected a string');
  return raw.length <= MAX_STRING_VALUE_LENGTH ? ok(raw) : fail(`Expected at most ${MAX_STRING_VALUE_LENGTH} characters`);
}

/** A JSON array of strings, given as an array or as its JSON text (the form GET renders). */
export function parseStringList(raw: unknown): Parsed<string[]> {
  let list = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      return fail('Expected an array of strings');
    }
  }
  if (!Array.isArray(list) || !list.every((item): item is string => typeof item === 'string')) return fail('Expected an array of strings');
  if (list.length > MAX_LIST_ITEMS) return fail(`Expected at most ${MAX_LIST_ITEMS} items`);
  const tooLong = list.some((item) => item.length > MAX_STRING_VALUE_LENGTH);
  return tooLong ? fail(`Expected items of at most ${MAX_STRING_VALUE_LENGTH} characters`) : ok(list);
}

const text = (valueText: string): StoredValue => ({ valueText, valueNumber: null });
const number = (valueNumber: number): StoredValue => ({ valueText: null, valueNumber });

function mapParsed<T>(parsed: Parsed<T>, store: (value: T) => StoredValue): Parsed<StoredValue> {
  return parsed.ok ? ok(store(parsed.value)) : parsed;
}

/** Checks a value written for an attribute of `type` and gives its stored form. */
export function parseAttributeValue(type: AttributeType, raw: unknown): Parsed<StoredValue> {
  switch (type) {
    case 'string':
      return mapParsed(parseString(raw), text);
    case 'number':
      return mapParsed(parseNumber(raw), number);
    case 'boolean':
      return mapParsed(parseBoolean(raw), (value) => number(value ? 1 : 0));
    case 'date':
      return mapParsed(parseDate(raw), text);
    case 'datetime':
      return mapParsed(parseDatetime(raw), text);
    case 'string_list':
      return mapParsed(parseStringList(raw), (list) => text(JSON.stringify(list)));
  }
}
