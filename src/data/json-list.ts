import { sql, type AnyColumn } from 'drizzle-orm';

/** `column IN (the list)` with the list bound as one JSON value: under D1's 100 bound parameters whatever its size. */
export const inJsonList = (column: AnyColumn, values: readonly string[]) => sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
