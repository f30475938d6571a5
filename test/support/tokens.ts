import { sign } from 'hono/utils/jwt/jwt';
import { env } from 'cloudflare:test';
import { testKeys } from './keys';

export type TokenOptions = {
  sub?: string;
  email?: string;
  username?: string;
  /** The `email_verified` claim: true unless a test says otherwise; `'omitted'` leaves the claim out (counts as unverified). */
  emailVerified?: boolean | 'omitted';
  key?: 'rs256' | 'es256' | 'rogueRs256';
  claims?: Record<string, unknown>;
};

let counter = 0;

/** A fresh identity for a test: unique `sub` and email. */
export function newIdentity(label = 'person') {
  counter += 1;
  const unique = `${label}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  return { sub: `idp|${unique}`, email: `${unique}@example.com`, username: unique };
}

/** Signs a portal access token with a test key trusted through AUTH_JWKS. */
export async function portalToken(options: TokenOptions = {}): Promise<string> {
  const identity = newIdentity();
  const now = Math.floor(Date.now() / 1000);
  const emailVerified = options.emailVerified ?? true;
  const payload = {
    sub: options.sub ?? identity.sub,
    email: options.email ?? identity.email,
    ...(emailVerified === 'omitted' ? {} : { email_verified: emailVerified }),
    preferred_username: options.username ?? identity.username,
    iss: env.AUTH_ISSUER,
    aud: env.AUTH_AUDIENCE,
    iat: now,
    exp: now + 600,
    ...options.claims,
  };
  const key = testKeys[options.key ?? 'rs256'];
  return sign(payload, key as unknown as JsonWebKey & { alg: 'RS256' | 'ES256'; kid: string });
}
