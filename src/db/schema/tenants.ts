import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

/**
 * The shard's copy of its tenants, written once when a tenant is created (services/tenants.ts):
 * what the tenant's own rows join (a redemption's receipt names its tenant) and what a shard's
 * crons walk. The directory's `tenants` (schema/directory.ts) is the one that decides: a slug is
 * unique there, not here, so a creation the directory refused leaves at most an unreachable row.
 */
export const tenants = sqliteTable('tenants', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  ...timestamps,
});

export const roles = ['super_admin', 'admin', 'editor', 'viewer'] as const;
export const membershipStatuses = ['invited', 'active'] as const;

/**
 * A person's role in one tenant. An invitation has no account until that email first signs in.
 * In the directory (sign-in, access, /user/me) and copied to the tenant's shard after every change
 * a member route makes, where the audit log's triggers record it (services/members.ts).
 */
export const memberships = sqliteTable(
  'memberships',
  {
    id: id(),
    tenantId: tenantId(),
    accountId: text('account_id'),
    email: text('email').notNull(),
    role: text('role', { enum: roles }).notNull(),
    status: text('status', { enum: membershipStatuses }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('memberships_tenant_email').on(t.tenantId, t.email),
    uniqueIndex('memberships_tenant_account').on(t.tenantId, t.accountId),
    index('memberships_account').on(t.accountId),
    index('memberships_email').on(t.email),
  ],
);

export type Tenant = typeof tenants.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type Role = (typeof roles)[number];
