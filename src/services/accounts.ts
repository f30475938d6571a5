import type { Database } from '../db/client';
import type { Account } from '../db/schema';
import { listMembershipsOfAccount } from '../data/accounts';
import type { CurrentAccountView } from '../schemas/account';
import { toCurrentAccountView } from '../views/account';

/** The signed-in account and the tenants it is an active member of (by tenant name). */
export async function getCurrentAccount(db: Database, account: Account): Promise<CurrentAccountView> {
  return toCurrentAccountView(account, await listMembershipsOfAccount(db, account.id));
}
