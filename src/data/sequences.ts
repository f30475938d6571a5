import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sequences } from '../db/schema';
import { ONE_ROW, selectedRow } from './insert-select';

/**
 * Takes the next value of a shard's sequence (`start` first) if `onlyIf` holds: a statement for a
 * batch, whose RETURNING row is the value (no row when `onlyIf` is false). One atomic statement:
 * SQLite runs it under the database write lock, so concurrent callers never get the same value. A
 * value taken by a request that later fails is simply skipped (gaps are harmless).
 */
export function nextSequenceValueStatement(db: Database, name: string, onlyIf: SQL, start: number) {
  return db
    .insert(sequences)
    .select(db.select(selectedRow(sequences, { name, value: start })).from(ONE_ROW).where(onlyIf))
    .onConflictDoUpdate({ target: sequences.name, set: { value: sql`${sequences.value} + 1` } })
    .returning({ value: sequences.value });
}

/**
 * Takes the next `count` values of a sequence at once (a batch's worth of new rows): RETURNING the
 * last, so the values are `last - count + 1` to `last`. The same atomic statement as above.
 */
export function reserveSequenceValuesStatement(db: Database, name: string, count: number, start: number) {
  return db
    .insert(sequences)
    .values({ name, value: start + count - 1 })
    .onConflictDoUpdate({ target: sequences.name, set: { value: sql`${sequences.value} + ${count}` } })
    .returning({ value: sequences.value });
}
