import type { Tenant } from '../db/schema';
import type { TenantView } from '../schemas/tenant';

export function toTenantView(tenant: Tenant): TenantView {
  return { id: tenant.id, name: tenant.name, slug: tenant.slug, created_at: tenant.createdAt, updated_at: tenant.updatedAt };
}
