import type { Account, Role } from '../db/schema';
import type { CurrentAccountView } from '../schemas/account';

export type AccountMembership = { tenant: { id: string; name: string; slug: string }; role: Role };

export function toCurrentAccountView(account: Account, memberships: AccountMembership[]): CurrentAccountView {
  return { id: account.id, username: account.username, email: account.email, memberships };
}
