import { getTableColumns, sql, type InferSelectModel } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { reusable, type Slots } from './reusable-statements';

/**
 * Many rows written by one statement: the rows travel as one JSON array bound as a single
 * parameter (`json_each(?)`), each row an array of its values in a fixed column order, read back
 * as `j.value ->> <position>`. D1 allows 100 bound parameters per statement and 1,000 statements
 * per invocation: a statement per row (or a parameter per value) runs out of both, and Drizzle
 * rebuilding each row's SQL was a quarter of an import's CPU. The SQL here is built once per
 * statement (reusable-statements.ts); a call only encodes the rows.
 *
 * `->>` gives SQL values as a bound parameter would: a JSON string is TEXT (even one that looks like
 * JSON or a number), a number INTEGER or REAL, null NULL; the column's affinity then applies.
 */

/** A value a JSON row can carry. */
export type JsonCell = string | number | null;

/**
 * Characters of JSON per statement. D1 refuses a string over 2,000,000 bytes (SQLite's length
 * limit, bound values included); a character is at most 3 bytes of UTF-8, so a text of at most
 * this many characters always fits, and rows beyond it go to another statement.
 */
const MAX_JSON_CHARS = 600_000;

/** The rows as JSON arrays of at most MAX_JSON_CHARS each (none for no rows); in order. */
export function jsonRowTexts(rows: readonly (readonly JsonCell[])[]): string[] {
  const texts: string[] = [];
  let parts: string[] = [];
  let length = 0;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (parts.length > 0 && length + text.length + 1 > MAX_JSON_CHARS) {
      texts.push(`[${parts.join(',')}]`);
      parts = [];
      length = 0;
    }
    if (text.length + 2 > MAX_JSON_CHARS) throw new Error(`json rows: one row is ${text.length} characters of JSON, over ${MAX_JSON_CHARS}`);
    parts.push(text);
    length += text.length + 1;
  }
  if (parts.length > 0) texts.push(`[${parts.join(',')}]`);
  return texts;
}

/** A statement over the rows of one JSON text (`$.rows`), built once. */
export type JsonRowsStatement = (db: Database, values: { rows: string }) => ReturnType<Database['run']>;

/** One statement per JSON text of the rows (jsonRowTexts): one for any ordinary number of rows, none for no rows. */
export function overJsonRows(statement: JsonRowsStatement, db: Database, rows: readonly (readonly JsonCell[])[]) {
  return jsonRowTexts(rows).map((text) => statement(db, { rows: text }));
}

/** A value as the column stores it (its `mapToDriverValue`: JSON columns as text, booleans as 0/1), in a JSON row. */
function driverValue(column: SQLiteColumn, value: unknown): JsonCell {
  if (value === undefined) throw new Error(`json rows: no value for column ${column.name}`);
  if (value === null) return null;
  const mapped: unknown = column.mapToDriverValue(value);
  if (typeof mapped === 'string' || (typeof mapped === 'number' && Number.isFinite(mapped))) return mapped;
  throw new Error(`json rows: column ${column.name} stores a value JSON cannot carry (${typeof mapped})`);
}

type ColumnKey<T extends SQLiteTable> = keyof T['_']['columns'] & string;

/** On a conflict with an existing row on `target`, the `update` columns take the inserted row's values. */
export type JsonRowsUpsert<T extends SQLiteTable> = { target: readonly ColumnKey<T>[]; update: readonly ColumnKey<T>[] };

/**
 * `INSERT INTO table (every column) SELECT ... FROM json_each(?)`, optionally with an upsert. Each
 * row names every column (the table's select type: a missing value is a type error, never a
 * silent NULL or default); values are encoded by their columns as Drizzle encodes them. Define it
 * once, at module level, per table and upsert.
 *
 * @example
 * const insertWallets = jsonRowsInsert(internalWallets);
 * await db.batch([first, ...insertWallets(db, walletRows)]);
 */
export function jsonRowsInsert<T extends SQLiteTable>(table: T, upsert?: JsonRowsUpsert<T>) {
  const columns = Object.entries(getTableColumns(table)) as [string, SQLiteColumn][];
  const byKey = new Map(columns);
  const name = (key: string) => sql.identifier(byKey.get(key)!.name);
  const statement = reusable((db, $: Slots<{ rows: string }>) => {
    const names = sql.join(columns.map(([key]) => name(key)), sql`, `);
    const values = sql.join(columns.map((_, position) => sql`j.value ->> ${sql.raw(String(position))}`), sql`, `);
    // `where true`: SQLite reads an ON after `FROM json_each(?) j` as the join's constraint without it.
    const conflict = upsert
      ? sql` on conflict (${sql.join(upsert.target.map(name), sql`, `)}) do update set ${sql.join(
          upsert.update.map((key) => sql`${name(key)} = excluded.${name(key)}`),
          sql`, `,
        )}`
      : sql``;
    return db.run(sql`insert into ${table} (${names}) select ${values} from json_each(${$.rows}) j where true${conflict}`);
  });
  return (db: Database, rows: readonly InferSelectModel<T>[]) => {
    const cells = rows.map((row) => columns.map(([key, column]) => driverValue(column, (row as Record<string, unknown>)[key])));
    return overJsonRows(statement, db, cells);
  };
}
