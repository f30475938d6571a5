import { and, eq, exists, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { accounts, directoryTenants as tenants, memberships, type Account } from '../db/schema/directory';
import type { AccountIdentity, SignInIdentity } from '../domain/identity';
import { newId } from '../lib/ids';
import { namedBatch } from './named-batch';

/** Sign-ins, in the directory: accounts, memberships and tenants (with their shards) live there. */

/** What a sign-in writes: the account as the token describes it now. */
export type AccountState = { sub: string; username: string } & AccountIdentity;

const accountIdOfSub = (db: Database, sub: string) => db.select({ id: accounts.id }).from(accounts).where(eq(accounts.sub, sub));

/**
 * Invitations to `email` still waiting for a person, in tenants the account of `sub` is not a
 * member of yet (a second membership in one tenant would break `memberships_tenant_account`).
 */
function pendingInvitationsTo(db: Database, sub: string, email: string): SQL | undefined {
  const own = alias(memberships, 'own');
  const tenantsOfAccount = db.select({ tenantId: own.tenantId }).from(own).where(inArray(own.accountId, accountIdOfSub(db, sub)));
  return and(eq(memberships.email, email), isNull(memberships.accountId), notInArray(memberships.tenantId, tenantsOfAccount));
}

/** The read side: is there an invitation this sign-in could take? An unverified token has none to take. */
function claimableInvitation(db: Database, identity: SignInIdentity) {
  const where = identity.email !== undefined && identity.emailVerified ? pendingInvitationsTo(db, identity.sub, identity.email) : sql`0`;
  return db.select({ id: memberships.id }).from(memberships).where(where).limit(1);
}

/**
 * Creates or refreshes the account of `state.sub` (email and verification as the token says now;
 * the username is kept from the first sign-in), then links the invitations it may take; what they
 * change is stamped `now` (ISO). The link re-checks in SQL that the stored account has exactly this
 * email and that it is verified, so an unverified account is never linked whatever raced it.
 */
function refreshStatements(db: Database, state: AccountState, now: string) {
  const { sub, email, emailVerified, username } = state;
  const upsert = db
    .insert(accounts)
    .values({ id: newId('acc'), sub, email, emailVerified, username, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: accounts.sub, set: { email, emailVerified, updatedAt: now } });
  const verifiedOwner = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.sub, sub), eq(accounts.email, email), eq(accounts.emailVerified, true)));
  const link = db
    .update(memberships)
    .set({ accountId: sql`(${accountIdOfSub(db, sub)})`, status: 'active', updatedAt: now })
    .where(and(pendingInvitationsTo(db, sub, email), exists(verifiedOwner)));
  return [upsert, link] as const;
}

const selectAccount = (db: Database, sub: string) => db.select().from(accounts).where(eq(accounts.sub, sub)).limit(1);

/** The account's membership of the tenant and the tenant (separate statements: a batch cannot return two joined tables' same-named columns). */
function memberLookups(db: Database, sub: string, tenantId: string) {
  return [
    db
      .select()
      .from(memberships)
      .where(and(eq(memberships.tenantId, tenantId), inArray(memberships.accountId, accountIdOfSub(db, sub))))
      .limit(1),
    db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1),
  ] as const;
}

function toMember<M, T>(membershipRows: M[], tenantRows: T[]) {
  const [membership] = membershipRows;
  const [tenant] = tenantRows;
  return membership && tenant ? { membership, tenant } : undefined;
}

/** A sign-in's read, one D1 round trip: the account of `sub` and whether an invitation waits for it. */
export async function findSignIn(db: Database, identity: SignInIdentity) {
  const [accountRows, claimable] = await db.batch([selectAccount(db, identity.sub), claimableInvitation(db, identity)]);
  return { account: accountRows[0], hasClaimableInvitation: claimable.length > 0 };
}

/** The same read for a route under /tenant/{tenantId}, with the membership and the tenant: still one round trip. */
export async function findSignInToTenant(db: Database, identity: SignInIdentity, tenantId: string) {
  const { accountRows, claimable, member } = await namedBatch(db, {
    accountRows: selectAccount(db, identity.sub),
    claimable: claimableInvitation(db, identity),
    member: memberLookups(db, identity.sub, tenantId),
  });
  return { account: accountRows[0], hasClaimableInvitation: claimable.length > 0, member: toMember(...member) };
}

/** A sign-in's write (only when something changed), one round trip: refresh, link, read back; stamped `now` (ISO). */
export async function saveSignIn(db: Database, state: AccountState, now: string): Promise<Account | undefined> {
  const { accountRows } = await namedBatch(db, { refresh: refreshStatements(db, state, now), accountRows: selectAccount(db, state.sub) });
  return accountRows[0];
}

/** The same write for a route under /tenant/{tenantId}: a just-linked invitation to it counts at once. */
export async function saveSignInToTenant(db: Database, state: AccountState, tenantId: string, now: string) {
  const { accountRows, member } = await namedBatch(db, {
    refresh: refreshStatements(db, state, now),
    accountRows: selectAccount(db, state.sub),
    member: memberLookups(db, state.sub, tenantId),
  });
  return { account: accountRows[0], member: toMember(...member) };
}

export async function listMembershipsOfAccount(db: Database, accountId: string) {
  return db
    .select({ tenant: { id: tenants.id, name: tenants.name, slug: tenants.slug }, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(tenants.name);
}
