import { createMiddleware } from 'hono/factory';
import { verifyPortalToken } from '../auth/jwt';
import { createAccount, findAccountBySub, findMembershipWithTenant } from '../data/accounts';
import type { AccountEnv, Bindings, PortalEnv } from '../env';
import { ApiError } from '../lib/errors';

function tokenConfig(env: Bindings) {
  return {
    issuer: env.AUTH_ISSUER,
    audience: env.AUTH_AUDIENCE,
    jwks: { url: env.AUTH_JWKS_URL, inline: env.AUTH_JWKS },
  };
}

/**
 * Portal authentication: a valid bearer JWT, and the account behind its `sub` (created on first
 * sight from the `email` and `preferred_username`/`name` claims).
 */
export const authenticateAccount = createMiddleware<AccountEnv>(async function authenticateAccount(c, next) {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new ApiError('UNAUTHENTICATED', header ? 'Authorization header is not a bearer token' : 'Missing bearer token');
  const claims = await verifyPortalToken(match[1], tokenConfig(c.env));
  const db = c.get('db');
  let account = await findAccountBySub(db, claims.sub);
  if (!account) {
    if (!claims.email) throw new ApiError('UNAUTHENTICATED', 'Token has no email claim for a new account');
    const username = claims.preferred_username ?? claims.name ?? claims.email.split('@')[0] ?? claims.email;
    // Invitations go by email: only an email the identity provider has not marked unverified claims them.
    account = await createAccount(db, { sub: claims.sub, email: claims.email, username, linkInvitations: claims.email_verified !== false });
  }
  c.set('account', account);
  await next();
});

/**
 * Routes under /tenant/{tenantId}: the caller must be a member. A non-member gets the same 404 as a
 * tenant that does not exist, so tenant ids are never confirmed to outsiders.
 */
export const resolveTenantMember = createMiddleware<PortalEnv>(async function resolveTenantMember(c, next) {
  const tenantId = c.req.param('tenantId') ?? '';
  const account = c.get('account');
  const found = await findMembershipWithTenant(c.get('db'), account.id, tenantId);
  if (!found || found.membership.status !== 'active') throw ApiError.notFound('Tenant');
  c.set('portalAuth', { account, tenant: found.tenant, role: found.membership.role });
  await next();
});
