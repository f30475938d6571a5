import { and, eq, exists, inArray, isNull } from 'drizzle-orm';
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

/**
 * The account of `sub`, its membership in the tenant and the tenant, in one D1 round trip (the
 * portal's per-request lookup). Separate statements, as a batch cannot return two joined tables'
 * same-named columns.
 */
export async function findAccountWithMembership(db: Database, sub: string, tenantId: string) {
  const accountOfSub = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.sub, sub));
  const [accountRows, membershipRows, tenantRows] = await db.batch([
    db.select().from(accounts).where(eq(accounts.sub, sub)).limit(1),
    db
      .select()
      .from(memberships)
      .where(and(eq(memberships.tenantId, tenantId), inArray(memberships.accountId, accountOfSub)))
      .limit(1),
    db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1),
  ]);
  const membership = membershipRows[0];
  const tenant = tenantRows[0];
  return { account: accountRows[0], member: membership && tenant ? { membership, tenant } : undefined };
}

export async function listMembershipsOfAccount(db: Database, accountId: string) {
  return db
    .select({ tenant: { id: tenants.id, name: tenants.name, slug: tenants.slug }, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(tenants.name);
}
