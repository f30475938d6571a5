import type { Role } from '../api/types';

/**
 * Which roles may do what, as the API decides it (CONTRACT.md "Roles and permissions"; the Worker's
 * src/domain/permissions.ts, which permissions.test.ts compares this with). The CMS hides what a
 * role may not do; the API still refuses it, and its message would show.
 */
export const permissions = {
  read: ['super_admin', 'admin', 'editor', 'viewer'],
  edit_program: ['super_admin', 'admin', 'editor'],
  manage_api_keys: ['super_admin', 'admin'],
  manage_members: ['super_admin', 'admin'],
  manage_onchain_assets: ['super_admin', 'admin'],
  manage_webhooks: ['super_admin', 'admin'],
  manage_super_admins: ['super_admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function can(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
