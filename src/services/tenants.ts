import type { Database } from '../db/client';
import { memberships, tenants, type Account } from '../db/schema';
import { violatesUnique } from '../data/db-errors';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import type { TenantView } from '../schemas/tenant';
import { toTenantView } from '../views/tenant';

/**
 * Creates a tenant and makes its creator the `super_admin` in one D1 batch, so a tenant never
 * exists without someone able to administer it. A taken slug is a 409.
 */
export async function createTenant(db: Database, input: { account: Account; name: string; slug: string }): Promise<TenantView> {
  const tenantId = newId('ten');
  const [[tenant]] = await db
    .batch([
      db.insert(tenants).values({ id: tenantId, name: input.name, slug: input.slug }).returning(),
      db.insert(memberships).values({
        id: newId('mem'),
        tenantId,
        accountId: input.account.id,
        email: input.account.email,
        role: 'super_admin',
        status: 'active',
      }),
    ])
    .catch((error: unknown) => {
      throw violatesUnique(error, 'tenants.slug') ? new ApiError('CONFLICT', `The slug ${input.slug} is already taken`, { path: 'slug' }) : error;
    });
  if (!tenant) throw new Error('tenant insert returned nothing');
  return toTenantView(tenant);
}
