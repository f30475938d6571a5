import type { Role } from '../db/schema';
import {
  copyMembership,
  deleteMember,
  deleteMembershipCopy,
  findExistingMembership,
  findMemberWithSuperAdminCount,
  findVerifiedAccountByEmail,
  insertInvitation,
  listMembers as listMemberRows,
  updateMemberRole,
} from '../data/members';
import { violatesUnique } from '../data/db-errors';
import { normalizeEmail } from '../domain/identity';
import { assertKeepsSuperAdmin, assertMayHandleRoles, isActiveSuperAdmin, lastSuperAdminError } from '../domain/members';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { MemberView } from '../schemas/member';
import { toMemberView } from '../views/member';
import type { ServiceContext } from './context';

/** The signed-in person acting on the tenant's members (already known to hold `manage_members`). */
export type Actor = { accountId: string; role: Role };

/**
 * Members live in the directory, which decides access at once (a sign-in reads it); every change
 * is then copied to the tenant's shard, where the audit log records it with the request's actor.
 */

export async function listMembers({ directory, tenantId }: ServiceContext, params: PageParams): Promise<Page<MemberView>> {
  const { rows, total } = await listMemberRows(directory, tenantId, params);
  return pageOf(
    rows.map((row) => toMemberView(row.membership, row.account)),
    total,
    params,
  );
}

const alreadyMember = () => new ApiError('CONFLICT', 'This person is already a member of the tenant', { path: 'email' });

/**
 * Invites a person by email. An account whose identity provider verified that very email is linked
 * at once (active); otherwise the invitation waits until someone signs in with that email verified
 * (services/accounts.ts). An account holding the email unverified is never linked.
 */
export async function inviteMember({ db, directory, tenantId, now }: ServiceContext, input: { actor: Actor; email: string; role: Role }): Promise<MemberView> {
  assertMayHandleRoles(input.actor.role, [input.role]);
  const email = normalizeEmail(input.email);
  const account = await findVerifiedAccountByEmail(directory, email);
  if (await findExistingMembership(directory, tenantId, email, account?.id)) throw alreadyMember();
  const row = await insertInvitation(directory, { id: newId('mem'), tenantId, email, role: input.role }, account?.id, isoNow(now())).catch((error: unknown) => {
    // A concurrent invitation of the same person won the unique index.
    throw violatesUnique(error) ? alreadyMember() : error;
  });
  await copyMembership(db, row.membership);
  return toMemberView(row.membership, row.account);
}

/** The member addressed by `userId` (404 if none) and the tenant's active super_admin count. */
async function loadTarget({ directory, tenantId }: ServiceContext, userId: string) {
  const { member, activeSuperAdmins } = await findMemberWithSuperAdminCount(directory, tenantId, userId);
  if (!member) throw ApiError.notFound('Member');
  return { ...member, activeSuperAdmins };
}

/** Same guards as removal: last super_admin 400, then only a super_admin touches that role (403). */
export async function changeMemberRole(ctx: ServiceContext, input: { actor: Actor; userId: string; role: Role }): Promise<MemberView> {
  const { membership, account, activeSuperAdmins } = await loadTarget(ctx, input.userId);
  if (input.role !== 'super_admin') assertKeepsSuperAdmin(membership, activeSuperAdmins, 'role');
  assertMayHandleRoles(input.actor.role, [membership.role, input.role]);
  if (membership.role === input.role) return toMemberView(membership, account);
  const updated = await updateMemberRole(ctx.directory, ctx.tenantId, membership.id, input.role, isoNow(ctx.now()));
  // Nothing updated: removed meanwhile, or a concurrent change took the other super_admin.
  if (!updated) throw isActiveSuperAdmin(membership) ? lastSuperAdminError('role') : ApiError.notFound('Member');
  await copyMembership(ctx.db, updated);
  return toMemberView(updated, account);
}

/**
 * Removes a member; they vanish from the list and lose access at once. Checks in the contract's
 * order: no such member 404, own account 400, last super_admin 400, admin removing a super_admin 403.
 */
export async function removeMember(ctx: ServiceContext, input: { actor: Actor; userId: string }): Promise<void> {
  const { membership, activeSuperAdmins } = await loadTarget(ctx, input.userId);
  if (membership.accountId === input.actor.accountId) {
    throw new ApiError('BAD_REQUEST', 'You cannot remove your own account from the tenant', { path: 'userId' });
  }
  assertKeepsSuperAdmin(membership, activeSuperAdmins, 'userId');
  assertMayHandleRoles(input.actor.role, [membership.role]);
  if (!(await deleteMember(ctx.directory, ctx.tenantId, membership.id))) {
    throw isActiveSuperAdmin(membership) ? lastSuperAdminError('userId') : ApiError.notFound('Member');
  }
  await deleteMembershipCopy(ctx.db, ctx.tenantId, membership.id);
}
