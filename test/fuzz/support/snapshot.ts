import { env } from 'cloudflare:test';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../../../src/db/schema';

/**
 * The stored state of one tenant, to prove a refused write stored nothing. Every table with a
 * tenant column is read whole (the world is small), plus the global tenant and membership counts
 * (`POST /tenants`). Left out, because they are written for refused requests by design: the
 * idempotency outcomes (a 404/409 is replayed like a success) and the single-use signature
 * records; and `last_used_at`, which gateway auth refreshes in the background.
 */
const PROTOCOL_TABLES = new Set(['idempotency_records', 'gateway_signature_uses']);
const VOLATILE_COLUMNS = new Set(['last_used_at']);

const tenantTables = Object.values(schema).flatMap((value) => {
  if (!is(value, SQLiteTable)) return [];
  const tenantColumn = Object.values(getTableColumns(value)).find((column) => column.name === 'tenant_id');
  const name = getTableName(value);
  return tenantColumn && !PROTOCOL_TABLES.has(name) ? [{ name }] : [];
});

export type Snapshot = Map<string, string>;

export async function snapshot(tenantId: string): Promise<Snapshot> {
  const statements = [
    ...tenantTables.map(({ name }) => env.DB.prepare(`SELECT * FROM "${name}" WHERE tenant_id = ?`).bind(tenantId)),
    env.DB.prepare('SELECT count(*) AS tenants FROM tenants'),
    env.DB.prepare('SELECT count(*) AS memberships FROM memberships'),
  ];
  const results = await env.DB.batch<Record<string, unknown>>(statements);
  const names = [...tenantTables.map((table) => table.name), 'tenants (all)', 'memberships (all)'];
  return new Map(
    results.map((result, index) => {
      const rows = result.results.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !VOLATILE_COLUMNS.has(column))));
      return [names[index] ?? String(index), JSON.stringify(rows)];
    }),
  );
}

/** Tables whose content differs between the two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return [...after.keys()].filter((name) => before.get(name) !== after.get(name));
}
