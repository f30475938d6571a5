import type { Account, Membership } from '../db/schema';
import type { MemberView } from '../schemas/member';

/**
 * A membership with its linked account (null for an invitation: no user id or username yet).
 * A linked member shows the account's email, which may differ from the address invited.
 */
export function toMemberView(membership: Membership, account: Pick<Account, 'email' | 'username'> | null): MemberView {
  return {
    id: membership.id,
    user_id: membership.accountId,
    email: account?.email ?? membership.email,
    username: account?.username ?? null,
    role: membership.role,
    status: membership.status,
    created_at: membership.createdAt,
  };
}
