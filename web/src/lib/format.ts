/** Display helpers: XP amounts arrive as strings of digits (they may exceed 2^53), dates as ISO strings. */
export function xp(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return /^-?\d+$/.test(value) ? BigInt(value).toLocaleString('en-US') : value;
}

export function dateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

export function shortId(value: string): string {
  return value.length > 14 ? `${value.slice(0, 8)}…${value.slice(-4)}` : value;
}

/** A datetime-local value (the person's local time) as the ISO instant the API stores; undefined when blank or no time. */
export function isoOfLocal(local: string): string | undefined {
  const date = new Date(local);
  return local && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}
