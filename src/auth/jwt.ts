import type { HonoJsonWebKey as JWK } from 'hono/utils/jwt/jws';
import { decodeHeader, verify } from 'hono/utils/jwt/jwt';
import { JwtPayloadRequiresAud, JwtTokenAudience, JwtTokenIssuer } from 'hono/utils/jwt/types';
import { ApiError } from '../lib/errors';
import type { PortalClaims, PortalTokenConfig } from './claims';
import { findJwk } from './jwks';
import { forgetVerifiedToken, recallVerifiedToken, rememberVerifiedToken, tokenDigest } from './verified-tokens';

export const ALLOWED_ALGORITHMS = ['RS256', 'ES256'] as const;
export const CLOCK_TOLERANCE_SECONDS = 60;
const ACCEPTED_TYPES = ['JWT', 'at+jwt'];

function reject(message: string): never {
  throw new ApiError('UNAUTHENTICATED', message);
}

type AllowedAlgorithm = (typeof ALLOWED_ALGORITHMS)[number];

function isAllowedAlgorithm(alg: unknown): alg is AllowedAlgorithm {
  return ALLOWED_ALGORITHMS.some((allowed) => allowed === alg);
}

type SignedToken = { payload: Record<string, unknown>; kid: string; jwk: JWK };

function trustedJwk(config: PortalTokenConfig, kid: string): Promise<JWK | undefined> {
  return findJwk(config.jwks, kid).catch(() => reject('Signing keys are unavailable'));
}

/** What depends only on the token's bytes, the JWKS and issuer/audience: header, algorithm, key, signature, `iss`, `aud`, `typ`. */
async function verifySignedToken(token: string, config: PortalTokenConfig): Promise<SignedToken> {
  let header: { alg?: unknown; kid?: unknown; typ?: unknown };
  try {
    header = decodeHeader(token) as typeof header;
  } catch {
    return reject('Malformed bearer token');
  }
  // A header that decodes to JSON but not to an object (`null`, a number, an array) is malformed too.
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return reject('Malformed bearer token');
  const alg = header.alg;
  if (!isAllowedAlgorithm(alg)) return reject(`Token algorithm ${String(alg)} is not allowed`);
  if (typeof header.kid !== 'string') return reject('Token header has no kid');

  const jwk = await trustedJwk(config, header.kid);
  if (!jwk) return reject('Token signed by an unknown key');
  try {
    // `typ` may be absent, `JWT`, or `at+jwt` (RFC 9068 access tokens, as many identity providers issue).
    const typ = header.typ === undefined ? undefined : ACCEPTED_TYPES;
    const payload = await verify(token, { ...jwk, alg }, { alg, typ, iss: config.issuer, aud: config.audience, exp: false, nbf: false, iat: false });
    return { payload, kid: header.kid, jwk };
  } catch (err) {
    if (err instanceof JwtTokenIssuer) return reject('Token issuer is not accepted');
    if (err instanceof JwtTokenAudience || err instanceof JwtPayloadRequiresAud) return reject('Token audience is not accepted');
    return reject('Token signature is not valid');
  }
}

/** `exp` and `nbf` against the clock (60 s tolerance): checked on every request, cached or not. */
function checkValidity(times: { exp: number; nbf: number | undefined }, nowSeconds: number): void {
  if (times.exp + CLOCK_TOLERANCE_SECONDS <= nowSeconds) reject('Token has expired');
  if (times.nbf !== undefined && times.nbf - CLOCK_TOLERANCE_SECONDS > nowSeconds) reject('Token is not valid yet');
}

function checkedClaims(payload: Record<string, unknown>, nowSeconds: number): { claims: PortalClaims; exp: number; nbf: number | undefined } {
  if (typeof payload.exp !== 'number') return reject('Token has no expiry');
  const times = { exp: payload.exp, nbf: typeof payload.nbf === 'number' ? payload.nbf : undefined };
  checkValidity(times, nowSeconds);
  if (typeof payload.sub !== 'string' || payload.sub === '') return reject('Token has no subject');
  const claims = {
    sub: payload.sub,
    email: typeof payload.email === 'string' ? payload.email : undefined,
    email_verified: payload.email_verified === true || payload.email_verified === 'true',
    preferred_username: typeof payload.preferred_username === 'string' ? payload.preferred_username : undefined,
    name: typeof payload.name === 'string' ? payload.name : undefined,
  };
  return { claims, ...times };
}

/**
 * Verifies a portal bearer token: RS256/ES256 only (never `none` or HS*), key by `kid` from the
 * JWKS, signature, `iss`, `aud`, and a required `exp` (60 s tolerance, also for `nbf`). A token
 * this isolate already verified against the same key object, issuer and audience skips the
 * header and signature checks, not the expiry (src/auth/verified-tokens.ts, docs/decisions/0056-verified-portal-tokens-cache.md).
 * @example const claims = await verifyPortalToken(token, config);
 */
export async function verifyPortalToken(token: string, config: PortalTokenConfig, nowSeconds = Math.floor(Date.now() / 1000)): Promise<PortalClaims> {
  // An empty setting would make the iss/aud checks below pass any token: refuse to run (500, logged).
  if (!config.issuer?.trim() || !config.audience?.trim()) throw new Error('AUTH_ISSUER and AUTH_AUDIENCE must be configured');
  const digest = await tokenDigest(token);
  const known = recallVerifiedToken(digest, config);
  // The kid must still be trusted with the very key it was verified with; otherwise verify afresh.
  if (known && (await trustedJwk(config, known.kid)) === known.jwk) {
    checkValidity(known, nowSeconds);
    return known.claims;
  }
  if (known) forgetVerifiedToken(digest);
  const { payload, kid, jwk } = await verifySignedToken(token, config);
  const { claims, exp, nbf } = checkedClaims(payload, nowSeconds);
  rememberVerifiedToken(digest, { claims, kid, jwk, issuer: config.issuer, audience: config.audience, exp, nbf });
  return claims;
}
