import { and, eq, exists, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, memberships, tenants, type Account } from '../db/schema';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';

export async function findAccountBySub(db: Database, sub: string): Promise<Account | undefined> {
  return db.query.accounts.findFirst({ where: eq(accounts.sub, sub) });
}

/**
 * Creates the account on first sight (concurrent first requests are safe: the insert ignores a
 * taken `sub`, and only the inserted account takes invitations) and, when the identity provider
 * vouches for the email, links every pending invitation sent to it, in one batch.
 */
export async function createAccount(
  db: Database,
  input: { sub: string; email: string; username: string; linkInvitations: boolean },
): Promise<Account> {
  const id = newId('acc');
  const email = input.email.toLowerCase();
  const insert = db.insert(accounts).values({ id, sub: input.sub, email, username: input.username }).onConflictDoNothing();
  const link = db
    .update(memberships)
    .set({ accountId: id, status: 'active', updatedAt: isoNow() })
    .where(and(eq(memberships.email, email), isNull(memberships.accountId), exists(db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, id)))));
  await (input.linkInvitations ? db.batch([insert, link]) : insert);
  const account = await findAccountBySub(db, input.sub);
  if (!account) throw new Error('account vanished after insert');
  return account;
}

/** The caller's membership in a tenant together with the tenant, or undefined when not a member. */
export async function findMembershipWithTenant(db: Database, accountId: string, tenantId: string) {
  const [row] = await db
    .select({ tenant: tenants, membership: memberships })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.tenantId, tenantId)))
    .limit(1);
  return row;
}

export async function listMembershipsOfAccount(db: Database, accountId: string) {
  return db
    .select({ tenant: { id: tenants.id, name: tenants.name, slug: tenants.slug }, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(tenants.name);
}
