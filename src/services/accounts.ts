import type { PortalClaims } from '../auth/claims';
import { recallMember, type RememberedMember } from '../data/member-cache';
import type { Account } from '../db/schema';
import { findSignIn, findSignInToTenant, listMembershipsOfAccount, saveSignIn, saveSignInToTenant, type AccountState } from '../data/accounts';
import { normalizeEmail, refreshedIdentity, signInNeedsWrite, type SignInIdentity } from '../domain/identity';
import { ApiError } from '../lib/errors';
import { isoNow } from '../lib/time';
import type { CurrentAccountView } from '../schemas/account';
import { toCurrentAccountView } from '../views/account';
import type { RunContext } from './context';

/** The signed-in account and the tenants it is an active member of (by tenant name). */
export async function getCurrentAccount(ctx: RunContext, account: Account): Promise<CurrentAccountView> {
  return toCurrentAccountView(account, await listMembershipsOfAccount(ctx.directory, account.id));
}

/** The token's claims in stored form; the username is `preferred_username`, else `name`, else the email's local part. */
function identityOf(claims: PortalClaims): SignInIdentity {
  const email = claims.email?.trim() ? normalizeEmail(claims.email) : undefined;
  const username = claims.preferred_username ?? claims.name ?? email?.split('@')[0] ?? '';
  return { sub: claims.sub, email, emailVerified: email !== undefined && claims.email_verified, username };
}

/** What the sign-in writes; a first sign-in needs an email to create the account from (401 otherwise). */
function stateToSave(stored: Account | undefined, identity: SignInIdentity): AccountState {
  if (stored) return { sub: identity.sub, username: stored.username, ...refreshedIdentity(stored, identity) };
  if (identity.email === undefined) throw new ApiError('UNAUTHENTICATED', 'Token has no email claim for a new account');
  return { sub: identity.sub, username: identity.username, email: identity.email, emailVerified: identity.emailVerified };
}

function accountAfterSave(account: Account | undefined): Account {
  if (!account) throw new Error('account missing right after its upsert');
  return account;
}

/**
 * Every authenticated portal request is a sign-in: the account of the token's `sub` is created on
 * first sight, its email and `email_verified` are refreshed from the token, and invitations to a
 * verified email are linked. One read when nothing changed, one more round trip when something did.
 * Not tenant-scoped (no tenant is known yet): it takes a `RunContext`, whose clock stamps the write.
 */
export async function signIn(ctx: RunContext, claims: PortalClaims): Promise<Account> {
  const identity = identityOf(claims);
  const { account, hasClaimableInvitation } = await findSignIn(ctx.directory, identity);
  if (account && !signInNeedsWrite(account, identity, hasClaimableInvitation)) return account;
  return accountAfterSave(await saveSignIn(ctx.directory, stateToSave(account, identity), isoNow(ctx.now())));
}

/** `signIn` for a route under /tenant/{tenantId}, also loading the caller's membership of it and the tenant. */
export async function signInToTenant(ctx: RunContext, claims: PortalClaims, tenantId: string) {
  const identity = identityOf(claims);
  const found = await findSignInToTenant(ctx.directory, identity, tenantId);
  if (found.account && !signInNeedsWrite(found.account, identity, found.hasClaimableInvitation)) {
    return { account: found.account, member: found.member };
  }
  const saved = await saveSignInToTenant(ctx.directory, stateToSave(found.account, identity), tenantId, isoNow(ctx.now()));
  return { account: accountAfterSave(saved.account), member: saved.member };
}

/**
 * The membership this isolate remembers for the token's person in the tenant, when it can serve
 * the request as is: the token says nothing a sign-in would have to write (middleware/portal-auth.ts
 * still confirms it against D1 in the route's first batch).
 */
export function rememberedMember(claims: PortalClaims, tenantId: string): RememberedMember | undefined {
  const remembered = recallMember(claims.sub, tenantId);
  return remembered && !signInNeedsWrite(remembered.account, identityOf(claims), false) ? remembered : undefined;
}
