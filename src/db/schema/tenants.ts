import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

export const tenants = sqliteTable('tenants', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  ...timestamps,
});

/** A person who signs in to the CMS, identified by the identity provider's `sub`. */
export const accounts = sqliteTable('accounts', {
  id: id(),
  sub: text('sub').notNull().unique(),
  email: text('email').notNull(),
  /** The identity provider's `email_verified` at the last sign-in: only a verified email may claim an invitation. */
  emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
  username: text('username').notNull(),
  ...timestamps,
});

export const roles = ['super_admin', 'admin', 'editor', 'viewer'] as const;
export const membershipStatuses = ['invited', 'active'] as const;

/** A person's role in one tenant. An invitation has no account until that email first signs in. */
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

/**
 * Never holds a row (like api_key_guard): a portal request answered from a remembered membership
 * (src/data/member-cache.ts) that may write carries `INSERT ... SELECT WHERE NOT (membership still
 * as remembered)` first in its batch, so a changed membership aborts the whole batch.
 */
export const portalMemberGuard = sqliteTable(
  'portal_member_guard',
  { membershipId: text('membership_id').notNull() },
  () => [check('portal_member_not_confirmed', sql`0`)],
);

export type Tenant = typeof tenants.$inferSelect;
export type Account = typeof accounts.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type Role = (typeof roles)[number];
