import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sequences } from '../db/schema';

/**
 * The next value of a platform-wide sequence (0 first). One atomic statement: SQLite runs it under
 * the database write lock, so concurrent callers never get the same value. A value taken by a
 * request that later fails is simply skipped (gaps are harmless).
 */
export async function nextSequenceValue(db: Database, name: string): Promise<number> {
  const [row] = await db
    .insert(sequences)
    .values({ name, value: 0 })
    .onConflictDoUpdate({ target: sequences.name, set: { value: sql`${sequences.value} + 1` } })
    .returning({ value: sequences.value });
  if (!row) throw new Error(`sequence ${name} returned no value`);
  return row.value;
}
