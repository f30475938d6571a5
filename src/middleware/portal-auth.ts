import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { verifyPortalToken, type PortalClaims } from '../auth/jwt';
import type { Database } from '../db/client';
import type { Account } from '../db/schema';
import { createAccount, findAccountBySub, findAccountWithMembership } from '../data/accounts';
import type { AccountEnv, PortalEnv } from '../env';
import { ApiError } from '../lib/errors';

/** The verified claims of the request's bearer token (401 otherwise). */
async function bearerClaims(c: Context<AccountEnv> | Context<PortalEnv>): Promise<PortalClaims> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new ApiError('UNAUTHENTICATED', header ? 'Authorization header is not a bearer token' : 'Missing bearer token');
  const jwks = { url: c.env.AUTH_JWKS_URL, inline: c.env.AUTH_JWKS };
  return verifyPortalToken(match[1], { issuer: c.env.AUTH_ISSUER, audience: c.env.AUTH_AUDIENCE, jwks });
}

/** First sight of a person: the account is created from the `email` and `preferred_username`/`name` claims. */
async function createAccountFor(db: Database, claims: PortalClaims): Promise<Account> {
  if (!claims.email) throw new ApiError('UNAUTHENTICATED', 'Token has no email claim for a new account');
  const username = claims.preferred_username ?? claims.name ?? claims.email.split('@')[0] ?? claims.email;
  // Invitations go by email: only an email the identity provider has not marked unverified claims them.
  return createAccount(db, { sub: claims.sub, email: claims.email, username, linkInvitations: claims.email_verified !== false });
}

/** Portal routes outside a tenant (/user/me, /tenants): a valid bearer JWT and the account behind its `sub`. */
export const authenticateAccount = createMiddleware<AccountEnv>(async function authenticateAccount(c, next) {
  const claims = await bearerClaims(c);
  const db = c.get('db');
  c.set('account', (await findAccountBySub(db, claims.sub)) ?? (await createAccountFor(db, claims)));
  await next();
});

/**
 * Routes under /tenant/{tenantId}: a valid bearer JWT whose account is an active member of the
 * tenant, loaded in one D1 round trip. A non-member gets the same 404 as a tenant that does not
 * exist, so tenant ids are never confirmed to outsiders.
 */
export const authenticateMember = createMiddleware<PortalEnv>(async function authenticateMember(c, next) {
  const claims = await bearerClaims(c);
  const db = c.get('db');
  const tenantId = c.req.param('tenantId') ?? '';
  let found = await findAccountWithMembership(db, claims.sub, tenantId);
  if (!found.account) {
    await createAccountFor(db, claims);
    // A first sign-in may have just claimed an invitation to this very tenant.
    found = await findAccountWithMembership(db, claims.sub, tenantId);
  }
  const { account, member } = found;
  if (!account) throw new Error('account vanished after creation');
  if (!member || member.membership.status !== 'active') throw ApiError.notFound('Tenant');
  c.set('account', account);
  c.set('portalAuth', { account, tenant: member.tenant, role: member.membership.role });
  await next();
});
