/**
 * PKCE (RFC 7636) as the dev OpenID provider checks it (scripts/lib/dev-oidc.ts): S256 only, the
 * method every browser client uses (oidc-client-ts included); `plain` would let a stolen code be
 * redeemed with the challenge itself. Web Crypto only, so it runs in Node and in workerd (test/unit).
 */

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A SHA-256 digest in base64url without padding is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** BASE64URL(SHA256(ASCII(code_verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** Whether `verifier` is well-formed and is the one `challenge` was made from. */
export async function verifiesS256(verifier: string, challenge: string): Promise<boolean> {
  if (!VERIFIER.test(verifier) || !isS256Challenge(challenge)) return false;
  return (await s256Challenge(verifier)) === challenge;
}
