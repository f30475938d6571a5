import type { Customer, Tenant } from '../db/schema';
import type { z } from '@hono/zod-openapi';
import type { tenantBriefSchema, userBriefSchema } from '../schemas/common';

export type TenantBrief = z.infer<typeof tenantBriefSchema>;
export type UserBrief = z.infer<typeof userBriefSchema>;

export function toTenantBrief(tenant: Pick<Tenant, 'id' | 'name' | 'slug'>): TenantBrief {
  return { id: tenant.id, name: tenant.name, slug: tenant.slug };
}

/**
 * The spec's user brief of a customer: all three fields are required strings, so a username or
 * email the customer does not have is "" (as on internal transactions, docs/decisions/0009-internal-transaction-views.md).
 */
export function toUserBrief(customer: Pick<Customer, 'id' | 'username' | 'email'>): UserBrief {
  return { id: customer.id, username: customer.username ?? '', email: customer.email ?? '' };
}
