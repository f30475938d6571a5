import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';
import * as schema from './schema';

export type Database = DrizzleD1Database<typeof schema>;

/** A request-scoped Drizzle client over a D1 binding (or a guarded wrapper of it). */
export function createDatabase(d1: D1Database): Database {
  return drizzle(d1, { schema });
}
