import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Bound } from './reusable-statements';

/**
 * `column = tenantId` that SQLite will not answer with an index (the unary `+`), for statements
 * that find rows by id (`id IN (subquery)`): without statistics the planner prefers the tenant's
 * index, which walks every row of the tenant, over the primary key. The check still applies to
 * every row the ids find, so a row of another tenant is never returned.
 */
export function ownedBy(column: SQLiteColumn, tenantId: Bound<string>): SQL {
  return sql`+${column} = ${tenantId}`;
}
