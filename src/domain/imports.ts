import type { ImportKind } from '../db/schema';
import { ApiError, type FieldError } from '../lib/errors';

/**
 * Imports of CSV files (CONTRACT.md, Operations; docs/OPERATIONS.md): the limits, the header's
 * rules and how a row is numbered. Pure: the service streams, parses and writes.
 */

/** Largest upload: 50 MiB (a larger body is 413 whether or not Content-Length is sent). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/**
 * Rows per chunk: one queue message, one D1 batch whose statements are per table, not per row (the
 * rows are one bound JSON array). Large, so a chunk's fixed costs (the queue's delivery, the R2
 * read, the reads, the marker) are shared by many rows; bounded, so a chunk's batch stays well
 * inside a Worker invocation's CPU and D1's statement time, and its JSON far below D1's 2 MB value.
 */
export const IMPORT_CHUNK_ROWS = 1_000;

/** Row errors kept on the job itself; the error file has them all. */
export const JOB_ERRORS_SHOWN = 100;

/** The prefix of a customers file's attribute columns: `attr.<key>`. */
export const ATTRIBUTE_COLUMN_PREFIX = 'attr.';

const COLUMNS: Record<ImportKind, { required: readonly string[]; optional: readonly string[] }> = {
  customers: { required: ['external_id'], optional: ['email', 'username', 'country_code', 'status'] },
  balances: { required: ['external_id', 'amount'], optional: ['notes', 'expires_at'] },
};

/** The columns a kind knows (the attribute columns aside), for documentation and the CMS. */
export function importColumns(kind: ImportKind): readonly string[] {
  return [...COLUMNS[kind].required, ...COLUMNS[kind].optional];
}

/**
 * Checks a header row: every required column present, no unknown or repeated column (a customers
 * file may add `attr.<key>` columns; whether each key is defined is the tenant's to answer).
 * 422 VALIDATION_FAILED, one error per column at fault, its path `header.<column>`.
 * Answers the attribute keys the header names.
 */
export function checkImportHeader(kind: ImportKind, header: readonly string[]): string[] {
  const { required, optional } = COLUMNS[kind];
  const known = new Set([...required, ...optional]);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const attributeKeys: string[] = [];
  header.forEach((column, index) => {
    const path = `header.${column || index + 1}`;
    if (seen.has(column)) errors.push({ path, message: `Column "${column}" appears more than once` });
    seen.add(column);
    if (kind === 'customers' && column.startsWith(ATTRIBUTE_COLUMN_PREFIX) && column.length > ATTRIBUTE_COLUMN_PREFIX.length) {
      attributeKeys.push(column.slice(ATTRIBUTE_COLUMN_PREFIX.length));
    } else if (!known.has(column)) {
      const extra = kind === 'customers' ? ` or ${ATTRIBUTE_COLUMN_PREFIX}<key>` : '';
      errors.push({ path, message: `Unknown column "${column}": a ${kind} file has ${importColumns(kind).join(', ')}${extra}` });
    }
  });
  for (const column of required) {
    if (!seen.has(column)) errors.push({ path: `header.${column}`, message: `Column "${column}" is required` });
  }
  if (errors.length > 0) throw new ApiError('VALIDATION_FAILED', `The header row is not valid: ${errors[0]!.message}`, { errors });
  return attributeKeys;
}

/**
 * A row's number as a spreadsheet shows it: the header is row 1, the first data row 2 (blank
 * lines are skipped and not counted; a quoted field spanning lines is one row).
 */
export function rowNumber(chunk: number, chunkRows: number, index: number): number {
  return 2 + chunk * chunkRows + index;
}

/** The message of a row whose field count differs from the header's. */
export function columnCountProblem(fields: number, columns: number): string | undefined {
  if (fields === columns) return undefined;
  return `The row has ${fields} field${fields === 1 ? '' : 's'}, the header ${columns}`;
}
