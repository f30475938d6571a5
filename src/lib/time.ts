/** ISO 8601 UTC with milliseconds, the same form SQLite writes for column defaults. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}

export function unixSeconds(now: Date = new Date()): number {
  return Math.floor(now.getTime() / 1000);
}
