import type { Membership, Role } from '../db/schema';
import { ApiError } from '../lib/errors';
import { can } from './permissions';

/**
 * Member management rules (CONTRACT.md, Members). `manage_members` itself is checked by the route
 * first; these are the rules that depend on the target.
 */

export function lastSuperAdminError(path: string): ApiError {
  return new ApiError('BAD_REQUEST', 'The tenant must keep at least one super_admin', { path });
}

/** Only active super_admins count: an invitation cannot administer the tenant. */
export function isActiveSuperAdmin(membership: Membership): boolean {
  return membership.role === 'super_admin' && membership.status === 'active';
}

/** 400 when `target` is the only active super_admin and would stop being one. */
export function assertKeepsSuperAdmin(target: Membership, activeSuperAdmins: number, path: string): void {
  if (isActiveSuperAdmin(target) && activeSuperAdmins <= 1) throw lastSuperAdminError(path);
}

/** 403 unless the actor is a super_admin whenever the super_admin role is granted, changed or removed. */
export function assertMayHandleRoles(actorRole: Role, involved: readonly Role[]): void {
  if (involved.includes('super_admin') && !can(actorRole, 'manage_super_admins')) {
    throw new ApiError('FORBIDDEN', 'Only a super_admin may grant, change or remove the super_admin role');
  }
}
