import { count, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { directoryTenants } from '../db/schema/directory';
import type { ShardName } from '../domain/shards';
import { BoundedMap } from '../lib/bounded-map';

/**
 * Tenant -> shard, as this isolate learnt it. A tenant's shard never changes (moving one is an
 * operator's procedure that restarts the Worker: docs/SCALING.md), so an entry never goes stale; the
 * bound only keeps memory in check. Filled by whatever read the directory anyway (a sign-in, an API
 * key's lookup), so a warm path never asks the directory again.
 */
const MAX_REMEMBERED = 100_000;
const remembered = new BoundedMap<string, ShardName>(MAX_REMEMBERED);

export function rememberTenantShard(tenantId: string, shard: string): void {
  remembered.set(tenantId, shard as ShardName);
}

/** The tenant's shard from memory, else the directory (undefined: no such tenant). */
export async function tenantShardName(directory: Database, tenantId: string): Promise<ShardName | undefined> {
  const known = remembered.get(tenantId);
  if (known !== undefined) return known;
  const [row] = await directory.select({ shard: directoryTenants.shard }).from(directoryTenants).where(eq(directoryTenants.id, tenantId)).limit(1);
  if (row) rememberTenantShard(tenantId, row.shard);
  return row?.shard as ShardName | undefined;
}

/** How many tenants each shard holds (shards holding none are absent): what placement weighs. */
export async function tenantsPerShard(directory: Database): Promise<Map<string, number>> {
  const rows = await directory.select({ shard: directoryTenants.shard, tenants: count() }).from(directoryTenants).groupBy(directoryTenants.shard);
  return new Map(rows.map((row) => [row.shard, row.tenants]));
}
