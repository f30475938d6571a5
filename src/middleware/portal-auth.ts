import { createMiddleware } from 'hono/factory';
import { verifyPortalToken, type PortalClaims } from '../auth/jwt';
import type { Config } from '../config';
import type { AccountEnv, PortalEnv } from '../env';
import { ApiError } from '../lib/errors';
import { signIn, signInToTenant } from '../services/accounts';

/** Far above any real token; a longer header is refused before it is parsed. */
const MAX_AUTHORIZATION_LENGTH = 8192;

/** The verified claims of the request's bearer token (401 otherwise). */
async function bearerClaims(authorization: string | undefined, config: Config): Promise<PortalClaims> {
  const header = authorization ?? '';
  if (header.length > MAX_AUTHORIZATION_LENGTH) throw new ApiError('UNAUTHENTICATED', `Authorization header is longer than ${MAX_AUTHORIZATION_LENGTH} characters`);
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new ApiError('UNAUTHENTICATED', header ? 'Authorization header is not a bearer token' : 'Missing bearer token');
  const jwks = { url: config.AUTH_JWKS_URL, inline: config.AUTH_JWKS };
  return verifyPortalToken(match[1], { issuer: config.AUTH_ISSUER, audience: config.AUTH_AUDIENCE, jwks });
}

/** Portal routes outside a tenant (/user/me, /tenants): a valid bearer JWT and the account behind its `sub`. */
export const authenticateAccount = createMiddleware<AccountEnv>(async function authenticateAccount(c, next) {
  const claims = await bearerClaims(c.req.header('authorization'), c.get('config'));
  c.set('account', await signIn(c.get('db'), claims));
  await next();
});

/**
 * Routes under /tenant/{tenantId}: a valid bearer JWT whose account is an active member of the
 * tenant, loaded in one D1 round trip. A non-member gets the same 404 as a tenant that does not
 * exist, so tenant ids are never confirmed to outsiders.
 */
export const authenticateMember = createMiddleware<PortalEnv>(async function authenticateMember(c, next) {
  const claims = await bearerClaims(c.req.header('authorization'), c.get('config'));
  // A sign-in may link an invitation to this very tenant: it counts at once.
  const { account, member } = await signInToTenant(c.get('db'), claims, c.req.param('tenantId') ?? '');
  if (!member || member.membership.status !== 'active') throw ApiError.notFound('Tenant');
  c.set('account', account);
  c.set('portalAuth', { account, tenant: member.tenant, role: member.membership.role });
  await next();
});
