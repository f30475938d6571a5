import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { PortalClaims } from '../auth/claims';
import { verifyPortalToken } from '../auth/jwt';
import { forgetMember, rememberMember, type RememberedMember } from '../data/member-cache';
import type { Config } from '../config';
import { createDatabase } from '../db/client';
import { memberStillAsRemembered } from '../data/member-guard';
import { shardNamed, shardsOf } from '../data/shards';
import type { AccountEnv, PortalEnv } from '../app-env';
import type { Bindings } from '../env';
import { ApiError } from '../lib/errors';
import { rememberedMember, signIn, signInToTenant } from '../services/accounts';
import { answerBookmark, requestSession } from './bookmark';
import { requestContext } from './services';

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
  c.set('account', await signIn(requestContext(c), claims));
  await next();
});

/** Sends a request through the whole Worker again (the portal's full sign-in path, once a remembered membership turned out stale). */
export type Redispatch = (request: Request, env: Bindings, ctx: Context['executionCtx']) => Response | Promise<Response>;

/** The member, and the request's session on the tenant's shard, whose client the portal's routes run on. */
function setMember(c: Context<PortalEnv>, { account, membership, tenant }: RememberedMember) {
  c.set('account', account);
  c.set('portalAuth', { account, tenant, role: membership.role });
  const shard = shardNamed(shardsOf(c.env, c.get('config').SHARDS), tenant.shard);
  c.set('shard', shard);
  const session = requestSession(c, shard, 'portal');
  c.set('db', createDatabase(session.binding));
  return session;
}

const isRead = (method: string) => method === 'GET' || method === 'HEAD';
/** Requests sent through again after a stale remembered membership: they take the full path, whatever is remembered by then. */
const fullPathOnly = new WeakSet<Request>();

/**
 * Routes under /tenant/{tenantId}: a valid bearer JWT whose account is an active member of the
 * tenant. A non-member gets the same 404 as a tenant that does not exist, so tenant ids are never
 * confirmed to outsiders.
 *
 * The full path signs in and loads the membership in one D1 round trip before the route. A read by
 * a member this isolate already confirmed skips it: the route runs on the tenant's shard with the
 * remembered membership while the directory checks that it is still exactly so, at the same time.
 * If it is not, nothing the route read is answered: the request goes through the Worker again,
 * down the full path. Only reads take this path, so nothing a stale membership did is kept.
 */
export function authenticateMember(redispatch: Redispatch) {
  return createMiddleware<PortalEnv>(async function authenticateMember(c, next) {
    const claims = await bearerClaims(c.req.header('authorization'), c.get('config'));
    const tenantId = c.req.param('tenantId') ?? '';
    const remembered = isRead(c.req.method) && !fullPathOnly.has(c.req.raw) ? rememberedMember(claims, tenantId) : undefined;
    if (!remembered) {
      // A sign-in may link an invitation to this very tenant: it counts at once.
      const { account, member } = await signInToTenant(requestContext(c), claims, tenantId);
      if (!member || member.membership.status !== 'active') throw ApiError.notFound('Tenant');
      const confirmed = { account, ...member };
      if (isRead(c.req.method)) rememberMember(claims.sub, confirmed);
      const session = setMember(c, confirmed);
      await next();
      answerBookmark(c, session.bookmark());
      return;
    }
    // Begun before the route, awaited after it: the directory's check and the route's reads overlap.
    const stillMember = memberStillAsRemembered(c.env.DB, remembered);
    const session = setMember(c, remembered);
    await next();
    if (await stillMember) return answerBookmark(c, session.bookmark());
    forgetMember(claims.sub, tenantId);
    fullPathOnly.add(c.req.raw);
    const answer = await redispatch(c.req.raw, c.env, c.executionCtx);
    // Cleared first: Hono merges a new response's headers with the one it replaces, which is discarded whole.
    c.res = undefined;
    c.res = answer;
  });
}
