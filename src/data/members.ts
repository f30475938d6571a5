import { and, asc, count, desc, eq, exists, isNull, ne, notExists, or, sql, type Column, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { accounts, memberships, type Membership, type Role } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';
import { namedBatch } from './named-batch';

/** A membership with the account linked to it (null while it is an invitation). */
export type MemberRow = { membership: Membership; account: { email: string; username: string; emailVerified: boolean } | null };

// Aliased so batched rows (returned as objects by D1) do not collide with the membership's own email.
const memberColumns = {
  membership: memberships,
  accountEmail: sql<string | null>`${accounts.email}`.as('account_email'),
  accountUsername: sql<string | null>`${accounts.username}`.as('account_username'),
  accountEmailVerified: accounts.emailVerified,
};

type FlatRow = { membership: Membership; accountEmail: string | null; accountUsername: string | null; accountEmailVerified: boolean | null };

function toMemberRow(row: FlatRow): MemberRow {
  const { membership, accountEmail, accountUsername, accountEmailVerified } = row;
  return {
    membership,
    account: accountEmail === null ? null : { email: accountEmail, username: accountUsername ?? '', emailVerified: accountEmailVerified === true },
  };
}

function selectMembers(db: Database, where: SQL | undefined) {
  return db.select(memberColumns).from(memberships).leftJoin(accounts, eq(accounts.id, memberships.accountId)).where(where);
}

/**
 * A member addressed by user id: the linked account's id, or, for an invitation that has no account
 * yet, the membership id (the only id it has; prefixes keep the two apart).
 */
function memberWhere(tenantId: string, userId: string): SQL | undefined {
  return and(
    eq(memberships.tenantId, tenantId),
    or(eq(memberships.accountId, userId), and(isNull(memberships.accountId), eq(memberships.id, userId))),
  );
}

/** Works on the table and on its alias. */
const activeSuperAdmin = (columns: { role: Column; status: Column }) =>
  and(eq(columns.role, 'super_admin'), eq(columns.status, 'active'));

/** Newest first. */
export async function listMembers(db: Database, tenantId: string, params: PageParams) {
  const where = eq(memberships.tenantId, tenantId);
  const [rows, [total]] = await db.batch([
    selectMembers(db, where).orderBy(desc(memberships.createdAt), desc(memberships.id)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(memberships).where(where),
  ]);
  return { rows: rows.map(toMemberRow), total: total?.value ?? 0 };
}

/** The member and the tenant's number of active super_admins, in one round trip. */
export async function findMemberWithSuperAdminCount(db: Database, tenantId: string, userId: string) {
  const [rows, [superAdmins]] = await db.batch([
    selectMembers(db, memberWhere(tenantId, userId)).limit(1),
    db.select({ value: count() }).from(memberships).where(and(eq(memberships.tenantId, tenantId), activeSuperAdmin(memberships))),
  ]);
  const row = rows[0];
  return { member: row ? toMemberRow(row) : undefined, activeSuperAdmins: superAdmins?.value ?? 0 };
}

/** The account an invitation to `email` would link to: the oldest one whose identity provider verified that address. */
export async function findVerifiedAccountByEmail(db: Database, email: string) {
  const [account] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.email, email), eq(accounts.emailVerified, true)))
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
    .limit(1);
  return account;
}

/** An existing membership of the tenant for this email or account. */
export async function findExistingMembership(db: Database, tenantId: string, email: string, accountId: string | undefined) {
  const [membership] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), or(eq(memberships.email, email), accountId ? eq(memberships.accountId, accountId) : undefined)))
    .limit(1);
  return membership;
}

/**
 * Links the new invitation to `accountId` only if, when the batch runs, that account still holds the
 * invited email verified and is not a member of the tenant yet: an earlier read is never trusted.
 */
function linkNewInvitation(db: Database, invitation: { id: string; tenantId: string; email: string }, accountId: string, now: string) {
  const own = alias(memberships, 'own');
  const verifiedOwner = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.email, invitation.email), eq(accounts.emailVerified, true)));
  const alreadyMember = db
    .select({ id: own.id })
    .from(own)
    .where(and(eq(own.tenantId, invitation.tenantId), eq(own.accountId, accountId)));
  return db
    .update(memberships)
    .set({ accountId, status: 'active', updatedAt: now })
    .where(and(eq(memberships.id, invitation.id), exists(verifiedOwner), notExists(alreadyMember)));
}

/** Inserts an invitation, linked in the same batch to `accountId` when given and allowed (see above); `now` stamps the link. */
export async function insertInvitation(
  db: Database,
  invitation: { id: string; tenantId: string; email: string; role: Role },
  accountId: string | undefined,
  now: string,
): Promise<MemberRow> {
  const { readBack } = await namedBatch(db, {
    insert: db.insert(memberships).values({ ...invitation, accountId: null, status: 'invited' }),
    link: accountId === undefined ? undefined : linkNewInvitation(db, invitation, accountId, now),
    readBack: selectMembers(db, eq(memberships.id, invitation.id)).limit(1),
  });
  const [row] = readBack;
  if (!row) throw new Error('invitation insert returned nothing');
  return toMemberRow(row);
}

/**
 * Written into the WHERE of a role change or removal, so the rule "a tenant keeps an active
 * super_admin" holds even when two requests act on the last two super_admins at the same time.
 */
function keepsAnotherSuperAdmin(db: Database, tenantId: string, membershipId: string): SQL | undefined {
  const others = alias(memberships, 'others');
  const another = db
    .select({ id: others.id })
    .from(others)
    .where(and(eq(others.tenantId, tenantId), activeSuperAdmin(others), ne(others.id, membershipId)));
  return or(ne(memberships.role, 'super_admin'), ne(memberships.status, 'active'), exists(another));
}

/** The updated membership, or undefined when it is gone or the change would leave no super_admin. */
export async function updateMemberRole(db: Database, tenantId: string, membershipId: string, role: Role, now: string): Promise<Membership | undefined> {
  const [row] = await db
    .update(memberships)
    .set({ role, updatedAt: now })
    .where(and(eq(memberships.id, membershipId), eq(memberships.tenantId, tenantId), keepsAnotherSuperAdmin(db, tenantId, membershipId)))
    .returning();
  return row;
}

/** True when removed; false when it is gone or the removal would leave no super_admin. */
export async function deleteMember(db: Database, tenantId: string, membershipId: string): Promise<boolean> {
  const removed = await db
    .delete(memberships)
    .where(and(eq(memberships.id, membershipId), eq(memberships.tenantId, tenantId), keepsAnotherSuperAdmin(db, tenantId, membershipId)))
    .returning({ id: memberships.id });
  return removed.length > 0;
}

/**
 * The shard's copy of a membership the directory just wrote, whole (the audit log's triggers on
 * the shard record the change: services/members.ts). A conflict on the id is an update.
 */
export async function copyMembership(shard: Database, membership: Membership): Promise<void> {
  const { id, ...fields } = membership;
  await shard.insert(memberships).values(membership).onConflictDoUpdate({ target: memberships.id, set: fields });
}

/** Removes the shard's copy of a membership the directory just removed. */
export async function deleteMembershipCopy(shard: Database, tenantId: string, membershipId: string): Promise<void> {
  await shard.delete(memberships).where(and(eq(memberships.id, membershipId), eq(memberships.tenantId, tenantId)));
}
