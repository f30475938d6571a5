import { getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * `INSERT ... SELECT` by column name. Drizzle's `db.insert(table).select(query)` inserts into every
 * column of the table, in the table's order, so a select written as SQL (`select ?, ?, null, ...`)
 * is read by position: a column added to the table shifts every value after it, silently. Written
 * with `selectedRow`, each value is named by its column, every column must be named (the type
 * requires it, and Drizzle refuses a select whose names differ from the table's), and the row comes
 * out in the table's order whatever order it is written in.
 *
 * @example
 * db.insert(customerGuard).select(db.select(selectedRow(customerGuard, { userId: $.userId })).from(ONE_ROW).where(notExists(eligible)))
 */

/** A column's value: SQL over the select's FROM, a column, a placeholder, or a value bound as is (`null` is SQL null). */
export type Value = SQL | SQLiteColumn | Placeholder | string | number | null;

/** A value for every column of `T`, by its key. */
export type RowValues<T extends SQLiteTable> = { [K in keyof T['_']['columns']]: Value };

/** The fields of a select inserting `values` into `table`, one per column in the table's order. */
export function selectedRow<T extends SQLiteTable>(table: T, values: RowValues<T>): { [K in keyof T['_']['columns']]: SQL.Aliased } {
  const byKey = values as Record<string, Value>;
  const fields: Record<string, SQL.Aliased> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = byKey[key];
    fields[key] = (value === null ? sql`null` : sql`${value}`).as(column.name);
  }
  return fields as { [K in keyof T['_']['columns']]: SQL.Aliased };
}

/** The FROM of a select of values alone: one row, which its WHERE keeps or drops. */
export const ONE_ROW: SQL = sql`(select 1)`;
