import type { BatchItem } from 'drizzle-orm/batch';
import type { ImportJob } from '../db/schema';
import type { RowError } from '../data/imports';
import { columnCountProblem } from '../domain/imports';

/** One data row of a chunk: its number (as a spreadsheet shows it) and its fields. */
export type ImportRow = { row: number; fields: string[] };

/**
 * What a chunk's rows come to: the statements that apply the valid ones (for the chunk's one
 * batch), the rows refused with why, and how many rows the statements apply. `readBack`, when
 * present, runs last in the batch and `after` gets its result (e.g. to hand mints to settlement).
 */
export type ChunkPlan = {
  statements: BatchItem<'sqlite'>[];
  errors: RowError[];
  ok: number;
  guard?: BatchItem<'sqlite'>;
  readBack?: BatchItem<'sqlite'>;
  after?: (readBack: unknown) => Promise<void>;
};

/** A valid row's cells by column name (empty cells left out: a blank cell changes nothing), or why it is refused. */
export type Cells = { ok: true; row: number; cells: Map<string, string> } | { ok: false; error: RowError };

/** Each row's cells by the job's columns; a row whose field count is not the header's is refused. */
export function cellsOf(job: Pick<ImportJob, 'columns'>, rows: readonly ImportRow[]): Cells[] {
  return rows.map(({ row, fields }) => {
    const problem = columnCountProblem(fields.length, job.columns.length);
    if (problem) return { ok: false, error: { row, message: problem } };
    const cells = new Map<string, string>();
    job.columns.forEach((column, index) => {
      const value = fields[index]!.trim();
      if (value !== '') cells.set(column, value);
    });
    return { ok: true, row, cells };
  });
}

/** The first problem zod found, as a row error's message (`field: message`). */
export function issueMessage(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const [first] = issues;
  if (!first) return 'Not valid';
  return first.path.length > 0 ? `${first.path.map(String).join('.')}: ${first.message}` : first.message;
}
