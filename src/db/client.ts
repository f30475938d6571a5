import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';

/** `$client`: the binding it runs on (the gateway's idempotency middleware wraps it again). */
export type Database = DrizzleD1Database & { $client: D1Database };

/**
 * A request-scoped Drizzle client over a D1 binding (or a guarded wrapper of it). No relational
 * schema: `drizzle(d1, { schema })` rebuilds the relational config on every call, which profiled
 * as a tenth of a point read's CPU; every query here is a plain select, insert, update or delete.
 */
export function createDatabase(d1: D1Database): Database {
  return drizzle(d1);
}
