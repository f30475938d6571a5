import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortalTokenConfig } from '../../src/auth/claims';
import { CLOCK_TOLERANCE_SECONDS, verifyPortalToken } from '../../src/auth/jwt';
import { parseInlineJwks } from '../../src/auth/jwks';
import { currentAccountSchema } from '../../src/schemas/account';
import { expectOk } from '../support/http';
import { testKeys } from '../support/keys';
import { portalToken } from '../support/tokens';
import { createPerson, portalCall } from '../support/world';

/**
 * Verified portal tokens are kept per isolate until they expire: a token sent again skips the
 * RS256/ES256 verification, and only that (expiry, the JWKS and issuer/audience still decide).
 */
const trusted = JSON.stringify(testKeys.jwks);
const configWith = (jwks: string, overrides: Partial<PortalTokenConfig> = {}): PortalTokenConfig => ({
  issuer: env.AUTH_ISSUER,
  audience: env.AUTH_AUDIENCE,
  jwks: { inline: jwks },
  ...overrides,
});
const config = configWith(trusted);

/** The JWKS with its RS256 key replaced by `key` (or removed). */
function jwksWithRs256(key?: Record<string, unknown>): string {
  const others = testKeys.jwks.keys.filter((jwk) => jwk.kid !== testKeys.rs256.kid);
  return JSON.stringify({ keys: key ? [...others, key] : others });
}

/** Public-key verifications (RSASSA/ECDSA) and imports of public keys made while `run` runs. */
async function publicKeyWork(run: () => Promise<unknown>) {
  const verify = vi.spyOn(crypto.subtle, 'verify');
  const importKey = vi.spyOn(crypto.subtle, 'importKey');
  await run().finally(() => vi.restoreAllMocks());
  const publicKeyCall = (algorithm: unknown) => JSON.stringify(algorithm).match(/RSASSA|ECDSA/) !== null;
  return {
    verifications: verify.mock.calls.filter((args) => publicKeyCall(args[0])).length,
    imports: importKey.mock.calls.filter((args) => publicKeyCall(args[2])).length,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('verified portal tokens, cached per isolate', () => {
  it('verifies a token once; the same token again costs no public-key work', async () => {
    for (const key of ['rs256', 'es256'] as const) {
      const token = await portalToken({ key });
      expect(await publicKeyWork(() => verifyPortalToken(token, config))).toEqual({ verifications: 1, imports: 1 });
      expect(await publicKeyWork(() => verifyPortalToken(token, config))).toEqual({ verifications: 0, imports: 0 });
    }
  });

  it('keeps the check of expiry: a cached token past exp + tolerance is refused', async () => {
    const token = await portalToken();
    const claims = await verifyPortalToken(token, config);
    const exp = Math.floor(Date.now() / 1000) + 600;
    await expect(verifyPortalToken(token, config, exp + CLOCK_TOLERANCE_SECONDS + 5)).rejects.toThrow('Token has expired');
    expect(await verifyPortalToken(token, config)).toEqual(claims);
  });

  it('honours rotation: a cached token whose kid left the JWKS is refused', async () => {
    const token = await portalToken();
    await verifyPortalToken(token, config);
    await expect(verifyPortalToken(token, configWith(jwksWithRs256()))).rejects.toThrow('Token signed by an unknown key');
  });

  it('verifies again when the kid now names other key material (and refuses the token)', async () => {
    const token = await portalToken();
    await verifyPortalToken(token, config);
    const { kty, n, e, kid, alg } = testKeys.rogueRs256;
    await expect(verifyPortalToken(token, configWith(jwksWithRs256({ kty, n, e, kid, alg, use: 'sig' })))).rejects.toThrow('Token signature is not valid');
  });

  it('verifies again under another issuer or audience', async () => {
    const token = await portalToken();
    await verifyPortalToken(token, config);
    await expect(verifyPortalToken(token, configWith(trusted, { issuer: 'https://other.example' }))).rejects.toThrow('Token issuer is not accepted');
    await expect(verifyPortalToken(token, configWith(trusted, { audience: 'other' }))).rejects.toThrow('Token audience is not accepted');
  });

  it('is keyed by the exact token: a cached token with its signature altered is verified, and refused', async () => {
    const token = await portalToken();
    await verifyPortalToken(token, config);
    const [header, payload, signature = ''] = token.split('.');
    const altered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await expect(verifyPortalToken(altered, config)).rejects.toThrow('Token signature is not valid');
  });

  it('hands out the same key objects while the inline JWKS is unchanged (what a cached entry is pinned to)', () => {
    const first = parseInlineJwks(trusted);
    expect(parseInlineJwks(trusted)).toBe(first);
    expect(parseInlineJwks(jwksWithRs256())).not.toBe(first);
    expect(parseInlineJwks(trusted)[0]).not.toBe(first[0]);
  });

  it('through the Worker: a second request with the same token does no public-key verification', async () => {
    const person = await createPerson();
    const first = await publicKeyWork(async () => expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema));
    expect(first.verifications).toBe(1);
    const second = await publicKeyWork(async () => expectOk(await portalCall(person, 'GET', '/api/v1/user/me'), 200, currentAccountSchema));
    expect(second.verifications).toBe(0);
  });
});
