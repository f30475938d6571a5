import type { Account, Membership } from '../db/schema';
import type { MemberView } from '../schemas/member';

/**
 * A membership with its linked account (null for an invitation: no user id or username yet).
 * A linked member shows the account's current email while its identity provider vouches for it,
 * else the address the membership was made for: an unverified address someone typed at their
 * provider (say the CEO's) never appears next to their role.
 */
export function toMemberView(membership: Membership, account: Pick<Account, 'email' | 'username' | 'emailVerified'> | null): MemberView {
  return {
    id: membership.id,
    user_id: membership.accountId,
    email: account?.emailVerified ? account.email : membership.email,
    username: account?.username ?? null,
    role: membership.role,
    status: membership.status,
    created_at: membership.createdAt,
  };
}
