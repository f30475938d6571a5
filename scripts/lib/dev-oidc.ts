/**
 * The dev sign-in: a minimal OpenID provider for the CMS on this machine, started by `npm run dev`
 * (and `npm run test:e2e`), never part of the Worker. Any email signs in; the access token is a
 * portal token minted with the local dev key exactly like `npm run token` (scripts/lib/portal-token.ts),
 * so the Worker accepts it unchanged; the id token is signed with the same key, issued by this
 * provider for the CMS's client id. Authorization code flow with PKCE S256 only, refresh tokens,
 * userinfo, end-session, and a session cookie (signed in once, not asked again until sign-out).
 * Codes and tokens live in memory: restarting it invalidates them.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DEV_CMS_CLIENT_ID, type DevSigningKey } from './dev-files';
import { authorizePage, signedOutPage } from './dev-oidc-pages';
import { isS256Challenge, verifiesS256 } from './pkce';
import { devSubject, mintPortalToken, signJwt, TOKEN_TTL_SECONDS } from './portal-token';

/** `tokenTtlSeconds`: the e2e shortens it to see the CMS renew its session. */
export type DevOidcOptions = { key: DevSigningKey; port: number; host?: string; clientId?: string; tokenTtlSeconds?: number };
/** An access token as handed out, and by which grant (a refresh is a renewal). */
export type IssuedToken = { email: string; grant: 'authorization_code' | 'refresh_token'; accessToken: string };
export type DevOidc = { issuer: string; issued: () => readonly IssuedToken[]; stop: () => Promise<void> };

/** A code is redeemed right after the redirect; a minute is plenty and keeps a leaked one short-lived. */
const CODE_TTL_MS = 60_000;
const SESSION_COOKIE = 'dev_oidc_email';
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

type Grant = { email: string; clientId: string; redirectUri: string; challenge: string; nonce?: string; scope: string; expiresAt: number };
type Issued = { email: string; clientId: string; scope: string };

/** Only pages on this machine: the provider must not bounce a code (or a sign-out) anywhere else. */
function isLoopbackUrl(value: string | null): value is string {
  if (!value) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
  } catch {
    return false;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json';
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(text);
}

function redirect(res: ServerResponse, to: URL, headers: Record<string, string> = {}): void {
  res.writeHead(302, { location: to.toString(), 'cache-control': 'no-store', ...headers }).end();
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function cookieEmail(req: IncomingMessage): string | undefined {
  const match = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(req.headers.cookie ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

const token = () => randomBytes(24).toString('base64url');
const oauthError = (res: ServerResponse, error: string, description: string, status = 400) => send(res, status, { error, error_description: description });

/** @example const oidc = await startDevOidc({ key, port: 8797 }); … await oidc.stop(); */
export async function startDevOidc({ key, port, host = '127.0.0.1', clientId = DEV_CMS_CLIENT_ID, tokenTtlSeconds = TOKEN_TTL_SECONDS }: DevOidcOptions): Promise<DevOidc> {
  const issuer = `http://${host}:${port}`;
  const grants = new Map<string, Grant>();
  const refreshTokens = new Map<string, Issued>();
  /** In the order handed out, with the grant that asked (what `issued()` answers). */
  const accessTokens = new Map<string, Issued & { grant: IssuedToken['grant'] }>();

  /** Redirects back with `code` (and `state`), the way the authorization response is defined. */
  function issueCode(res: ServerResponse, params: URLSearchParams, email: string, headers: Record<string, string> = {}): void {
    const code = token();
    grants.set(code, {
      email,
      clientId,
      redirectUri: params.get('redirect_uri') ?? '',
      challenge: params.get('code_challenge') ?? '',
      nonce: params.get('nonce') ?? undefined,
      scope: params.get('scope') ?? 'openid',
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    const back = new URL(params.get('redirect_uri') ?? '');
    back.searchParams.set('code', code);
    if (params.get('state')) back.searchParams.set('state', params.get('state') ?? '');
    back.searchParams.set('iss', issuer);
    redirect(res, back, headers);
  }

  /** The request's own problem, before anything is redirected: a bad client or redirect_uri is shown, never followed. */
  function authorizeProblem(params: URLSearchParams): string | undefined {
    if (params.get('client_id') !== clientId) return `unknown client_id (this provider serves ${clientId})`;
    if (!isLoopbackUrl(params.get('redirect_uri'))) return 'redirect_uri must be an http URL on 127.0.0.1 or localhost';
    if (params.get('response_type') !== 'code') return 'response_type must be code';
    if (params.get('code_challenge_method') !== 'S256' || !isS256Challenge(params.get('code_challenge') ?? '')) return 'PKCE is required: code_challenge with code_challenge_method S256';
    return undefined;
  }

  async function tokens(res: ServerResponse, issued: Issued, grant: IssuedToken['grant'], nonce?: string): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const accessToken = await mintPortalToken(key, { email: issued.email }, now, tokenTtlSeconds);
    const idToken = await signJwt(key, {
      iss: issuer,
      aud: issued.clientId,
      sub: devSubject(issued.email),
      email: issued.email,
      email_verified: true,
      preferred_username: issued.email.split('@')[0],
      ...(nonce ? { nonce } : {}),
      iat: now,
      exp: now + tokenTtlSeconds,
    });
    const refreshToken = token();
    refreshTokens.set(refreshToken, issued);
    accessTokens.set(accessToken, { ...issued, grant });
    send(res, 200, { access_token: accessToken, id_token: idToken, refresh_token: refreshToken, token_type: 'Bearer', expires_in: tokenTtlSeconds, scope: issued.scope });
  }

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    if (form.get('client_id') !== clientId) return oauthError(res, 'invalid_client', `unknown client_id (this provider serves ${clientId})`, 401);
    if (form.get('grant_type') === 'refresh_token') {
      const issued = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!issued) return oauthError(res, 'invalid_grant', 'unknown or already used refresh_token');
      refreshTokens.delete(form.get('refresh_token') ?? ''); // rotated: each one is good once
      return tokens(res, issued, 'refresh_token');
    }
    if (form.get('grant_type') !== 'authorization_code') return oauthError(res, 'unsupported_grant_type', 'authorization_code or refresh_token');
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    grants.delete(code); // single use, whatever happens next
    if (!grant || grant.expiresAt < Date.now()) return oauthError(res, 'invalid_grant', 'unknown, used or expired code');
    if (form.get('redirect_uri') !== grant.redirectUri) return oauthError(res, 'invalid_grant', 'redirect_uri differs from the authorization request');
    if (!(await verifiesS256(form.get('code_verifier') ?? '', grant.challenge))) return oauthError(res, 'invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
    return tokens(res, { email: grant.email, clientId: grant.clientId, scope: grant.scope }, 'authorization_code', grant.nonce);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    // The CMS (another origin: the Worker's port) reads discovery, keys, tokens and userinfo with fetch.
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'authorization, content-type' }).end();
      return;
    }
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /.well-known/openid-configuration') {
      return send(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        end_session_endpoint: `${issuer}/logout`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: ['openid', 'profile', 'email'],
        claims_supported: ['sub', 'email', 'email_verified', 'preferred_username'],
      });
    }
    if (route === 'GET /jwks') return send(res, 200, { keys: [key.publicJwk] });
    if (route === 'GET /authorize' || route === 'POST /authorize') {
      const params = req.method === 'POST' ? await readForm(req) : url.searchParams;
      const problem = authorizeProblem(params);
      if (problem) return send(res, 400, authorizePage(params, problem));
      if (req.method === 'POST') {
        const email = (params.get('email') ?? '').trim().toLowerCase();
        if (!EMAIL.test(email)) return send(res, 422, authorizePage(params, undefined, 'Enter an email address, e.g. you@example.com'));
        return issueCode(res, params, email, { 'set-cookie': `${SESSION_COOKIE}=${encodeURIComponent(email)}; Path=/; HttpOnly; SameSite=Lax` });
      }
      // Like a real provider's session: signed in here before (cookie, until /logout), no form again
      // (a reload of the CMS, whose tokens live in memory only), unless prompt=login asks for it.
      const session = cookieEmail(req);
      if (session && params.get('prompt') !== 'login') return issueCode(res, params, session);
      // prompt=none (silent renewal without a refresh token) and no session: login_required.
      if (params.get('prompt') === 'none') {
        const back = new URL(params.get('redirect_uri') ?? '');
        back.searchParams.set('error', 'login_required');
        if (params.get('state')) back.searchParams.set('state', params.get('state') ?? '');
        return redirect(res, back);
      }
      return send(res, 200, authorizePage(params, undefined, undefined, session));
    }
    if (route === 'POST /token') return tokenEndpoint(req, res);
    if (route === 'GET /userinfo') {
      const issued = accessTokens.get(/^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
      if (!issued) return send(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return send(res, 200, { sub: devSubject(issued.email), email: issued.email, email_verified: true, preferred_username: issued.email.split('@')[0] });
    }
    if (route === 'GET /logout') {
      const clear = { 'set-cookie': `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax` };
      const back = url.searchParams.get('post_logout_redirect_uri');
      if (!isLoopbackUrl(back)) return send(res, 200, signedOutPage(), clear);
      const target = new URL(back);
      if (url.searchParams.get('state')) target.searchParams.set('state', url.searchParams.get('state') ?? '');
      return redirect(res, target, clear);
    }
    return send(res, 404, { error: 'not_found', error_description: `${route} is not an endpoint of the dev sign-in` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) oauthError(res, 'server_error', error instanceof Error ? error.message : String(error), 500);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    issuer,
    issued: () => [...accessTokens].map(([accessToken, { email, grant }]) => ({ email, grant, accessToken })),
    stop: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
