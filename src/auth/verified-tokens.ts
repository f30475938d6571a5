import type { HonoJsonWebKey as JWK } from 'hono/utils/jwt/jws';
import { BoundedMap } from '../lib/bounded-map';
import type { PortalClaims, PortalTokenConfig } from './claims';
import { sha256Hex } from './signature';

/**
 * Portal tokens this isolate verified, so a token sent again skips its RS256/ES256 check (the
 * costly part: a JWK import and a public-key verification). What a verification proved depends
 * only on the token's bytes, the public key and the configured issuer and audience, so an entry is
 * reused only while all of them are the same: the entry is keyed by the token's SHA-256, pinned to
 * the JWK object it was verified with (src/auth/jwks.ts hands out the same object until the key
 * set is parsed or fetched anew, so a rotation, a removed `kid` or new material under an old `kid`
 * all lead to a full verification) and to issuer and audience. Expiry and `nbf` are checked on
 * every request all the same. The key is a digest, not the token: the map never holds a usable
 * credential.
 */
export type VerifiedToken = {
  claims: PortalClaims;
  kid: string;
  jwk: JWK;
  issuer: string;
  audience: string;
  exp: number;
  nbf: number | undefined;
};

/** Far above the tokens one isolate sees in a token lifetime; the oldest entries go first. */
const MAX_VERIFIED_TOKENS = 10_000;
const verified = new BoundedMap<string, VerifiedToken>(MAX_VERIFIED_TOKENS);

/** Hex SHA-256 of the token: the cache key. */
export function tokenDigest(token: string): Promise<string> {
  return sha256Hex(token);
}

/** The earlier verification of this token under the same issuer and audience, if any. */
export function recallVerifiedToken(digest: string, config: PortalTokenConfig): VerifiedToken | undefined {
  const entry = verified.get(digest);
  return entry && entry.issuer === config.issuer && entry.audience === config.audience ? entry : undefined;
}

export function rememberVerifiedToken(digest: string, entry: VerifiedToken): void {
  verified.set(digest, { ...entry, claims: Object.freeze({ ...entry.claims }) });
}

export function forgetVerifiedToken(digest: string): void {
  verified.delete(digest);
}
