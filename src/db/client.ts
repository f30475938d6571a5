import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';
import * as schema from './schema';

/** `$client`: the binding it runs on (the gateway's idempotency middleware wraps it again). */
export type Database = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** A request-scoped Drizzle client over a D1 binding (or a guarded wrapper of it). */
export function createDatabase(d1: D1Database): Database {
  return drizzle(d1, { schema });
}
