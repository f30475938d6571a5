import { env } from 'cloudflare:test';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as directorySchema from '../../../src/db/schema/directory';
import * as shardSchema from '../../../src/db/schema/shard';
import { everyShard } from '../../support/world';

/**
 * The stored state of one tenant, to prove a refused write stored nothing. Every table with a
 * tenant column, in every shard and in the directory, is read whole (the world is small), plus the
 * global tenant and membership counts of each (`POST /tenants`). Left out, because they are written for refused requests by design: the
 * idempotency outcomes (a 404/409 is replayed like a success) and the single-use signature
 * records; and `last_used_at`, which gateway auth refreshes in the background.
 */
const PROTOCOL_TABLES = new Set(['idempotency_records', 'gateway_signature_uses']);
const VOLATILE_COLUMNS = new Set(['last_used_at']);

const tenantTablesOf = (schema: Record<string, unknown>) =>
  Object.values(schema).flatMap((value) => {
    if (!is(value, SQLiteTable)) return [];
    const tenantColumn = Object.values(getTableColumns(value)).find((column) => column.name === 'tenant_id');
    const name = getTableName(value);
    return tenantColumn && !PROTOCOL_TABLES.has(name) ? [name] : [];
  });

export type Snapshot = Map<string, string>;

/** One database's part of the snapshot, each table's rows under `<database> <table>`. */
async function tablesOf(d1: D1Database, database: string, tables: readonly string[], tenantId: string): Promise<[string, string][]> {
  const statements = [
    ...tables.map((name) => d1.prepare(`SELECT * FROM "${name}" WHERE tenant_id = ?`).bind(tenantId)),
    d1.prepare('SELECT count(*) AS tenants FROM tenants'),
    d1.prepare('SELECT count(*) AS memberships FROM memberships'),
  ];
  const results = await d1.batch<Record<string, unknown>>(statements);
  const names = [...tables, 'tenants (all)', 'memberships (all)'];
  return results.map((result, index) => {
    const rows = result.results.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !VOLATILE_COLUMNS.has(column))));
    return [`${database} ${names[index] ?? String(index)}`, JSON.stringify(rows)];
  });
}

/** Every shard is read, not only the tenant's: a write that went to another shard is a write too. */
export async function snapshot(tenantId: string): Promise<Snapshot> {
  const [directory, ...shards] = await Promise.all([
    tablesOf(env.DB, 'directory', tenantTablesOf(directorySchema), tenantId),
    ...everyShard().map(({ name, d1 }) => tablesOf(d1, name, tenantTablesOf(shardSchema), tenantId)),
  ]);
  return new Map([...shards.flat(), ...directory]);
}

/** Tables whose content differs between the two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return [...after.keys()].filter((name) => before.get(name) !== after.get(name));
}
