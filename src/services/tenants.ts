import { shardNamed } from '../data/shards';
import { directoryTenants, memberships, tenants, type Account } from '../db/schema';
import { tenantsPerShard } from '../data/tenant-shards';
import { violatesUnique } from '../data/db-errors';
import { placeTenant, type ShardName } from '../domain/shards';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import type { TenantView } from '../schemas/tenant';
import { toTenantView } from '../views/tenant';
import { onShard, type RunContext } from './context';

/**
 * Creates a tenant on the shard placement picks (domain/shards.ts: the pinned one, else the one
 * with the fewest tenants) and makes its creator the `super_admin`. The shard's copy of the tenant
 * is written first; then one directory batch writes the tenant with its shard and the membership,
 * so a tenant never exists without someone able to administer it, nor without its shard's copy. A
 * taken slug is a 409 (the copy written before it is never reached: its id is in no directory row).
 */
export async function createTenant(ctx: RunContext, input: { account: Account; name: string; slug: string }, pinned?: ShardName): Promise<TenantView> {
  const { directory } = ctx;
  const names = ctx.shards.map((shard) => shard.name);
  const shard = shardNamed(ctx.shards, placeTenant(names, await tenantsPerShard(directory), pinned));
  const tenantId = newId('ten');
  const membership = { id: newId('mem'), tenantId, accountId: input.account.id, email: input.account.email, role: 'super_admin' as const, status: 'active' as const };
  const { db: copy } = onShard(ctx, shard);
  await copy.batch([copy.insert(tenants).values({ id: tenantId, name: input.name, slug: input.slug }), copy.insert(memberships).values(membership)]);
  const [[tenant]] = await directory
    .batch([directory.insert(directoryTenants).values({ id: tenantId, name: input.name, slug: input.slug, shard: shard.name }).returning(), directory.insert(memberships).values(membership)])
    .catch((error: unknown) => {
      throw violatesUnique(error, 'tenants.slug') ? new ApiError('CONFLICT', `The slug ${input.slug} is already taken`, { path: 'slug' }) : error;
    });
  if (!tenant) throw new Error('tenant insert returned nothing');
  return toTenantView(tenant);
}
