/** Text of a D1 error, including the cause Drizzle wraps it in. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return `${error.message} ${error.cause === undefined ? '' : errorText(error.cause)}`;
}

/** True when a statement failed the named CHECK constraint (the whole D1 batch was rolled back). */
export function violatesCheck(error: unknown, constraint: string): boolean {
  return errorText(error).includes(`CHECK constraint failed: ${constraint}`);
}

/** True when a statement hit a UNIQUE constraint or primary key (optionally on a given column). */
export function violatesUnique(error: unknown, column?: string): boolean {
  const text = errorText(error);
  return /UNIQUE constraint failed|PRIMARY KEY/.test(text) && (column === undefined || text.includes(column));
}

/** True when a trigger aborted the batch with `RAISE(ABORT, message)` (src/db/sql/attribute-values.sql, for one). */
export function abortedByTrigger(error: unknown, message: string): boolean {
  return errorText(error).includes(message);
}
