import { count } from 'drizzle-orm';
import type { Database } from '../db/client';
import { directoryTenants } from '../db/schema/directory';

/** How many tenants each shard holds (shards holding none are absent): what placement weighs. */
export async function tenantsPerShard(directory: Database): Promise<Map<string, number>> {
  const rows = await directory.select({ shard: directoryTenants.shard, tenants: count() }).from(directoryTenants).groupBy(directoryTenants.shard);
  return new Map(rows.map((row) => [row.shard, row.tenants]));
}
