/**
 * Mints portal access tokens with the local dev key, the way an identity provider would:
 * RS256, `kid` of the dev key, `iss`/`aud` from wrangler.toml [vars], 12 h expiry, and a `sub`
 * derived from the email so the same email is always the same account.
 */
import type { DevSigningKey } from './dev-files';
import { readWranglerVars, requireVar } from './wrangler-vars';

export const TOKEN_TTL_SECONDS = 12 * 60 * 60;

function base64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString('base64url');
}

/** The stable subject of a dev identity: `dev|` plus the lowercased email. */
export function devSubject(email: string): string {
  return `dev|${email.trim().toLowerCase()}`;
}

export type DevIdentity = { email: string; username?: string };

/**
 * @example const token = await mintPortalToken(key, { email: 'you@example.com' });
 */
export async function mintPortalToken(key: DevSigningKey, identity: DevIdentity, nowSeconds = Math.floor(Date.now() / 1000), ttlSeconds = TOKEN_TTL_SECONDS): Promise<string> {
  const vars = readWranglerVars();
  const email = identity.email.trim().toLowerCase();
  const payload = {
    iss: requireVar(vars, 'AUTH_ISSUER'),
    aud: requireVar(vars, 'AUTH_AUDIENCE'),
    sub: devSubject(email),
    email,
    // The dev provider vouches for every address: only a verified email may take an invitation.
    email_verified: true,
    preferred_username: identity.username ?? email.split('@')[0] ?? email,
    iat: nowSeconds,
    exp: nowSeconds + ttlSeconds,
  };
  return signJwt(key, payload);
}

/** A JWT signed RS256 with `key` (its `kid` in the header): portal tokens, and the dev sign-in's id tokens. */
export async function signJwt(key: DevSigningKey, payload: Record<string, unknown>): Promise<string> {
  const header = { alg: 'RS256', typ: 'JWT', kid: key.kid };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const privateKey = await crypto.subtle.importKey('jwk', key.privateJwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', privateKey, new TextEncoder().encode(signingInput));
  return `${signingInput}.${base64url(new Uint8Array(signature))}`;
}
