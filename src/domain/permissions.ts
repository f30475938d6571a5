import type { Role } from '../db/schema';
import { ApiError } from '../lib/errors';

/** What a portal role may do (CONTRACT.md, Roles and permissions). Reads need only membership. */
export const permissions = {
  read: ['super_admin', 'admin', 'editor', 'viewer'],
  /** Customers, tiers, rewards, attributes, cohorts, XP adjustments, redemptions. */
  edit_program: ['super_admin', 'admin', 'editor'],
  manage_api_keys: ['super_admin', 'admin'],
  manage_members: ['super_admin', 'admin'],
  /** Registering, deploying and changing onchain assets: they move real tokens, so admins only. */
  manage_onchain_assets: ['super_admin', 'admin'],
  /** Webhook endpoints, their secrets and delivery logs: they send tenant data out. Admins only. */
  manage_webhooks: ['super_admin', 'admin'],
  /** The program's settings (time zone, point lifecycle, tier basis): they change how every rule and credit behaves. */
  manage_program_settings: ['super_admin', 'admin'],
  /** Erasing a person and exporting everything held about them (subject access). Admins only. */
  manage_personal_data: ['super_admin', 'admin'],
  /** Bulk imports and exports of the tenant's data: a whole program's members at once. Admins only. */
  run_imports_exports: ['super_admin', 'admin'],
  /** Reading the audit log: who changed what, with before and after values. Admins only. */
  read_audit_log: ['super_admin', 'admin'],
  manage_super_admins: ['super_admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function can(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}

/** @example assertCan(auth.role, 'manage_api_keys') // 403 FORBIDDEN otherwise */
export function assertCan(role: Role, permission: Permission): void {
  if (!can(role, permission)) {
    throw new ApiError('FORBIDDEN', `Your role (${role}) may not ${permission.replaceAll('_', ' ')} in this tenant`);
  }
}
