/** The dev OpenID provider's PKCE check (scripts/lib/pkce.ts), against RFC 7636's own example. */
import { describe, expect, it } from 'vitest';
import { isS256Challenge, s256Challenge, verifiesS256 } from '../../scripts/lib/pkce';

// RFC 7636, Appendix B.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE S256', () => {
  it('derives the RFC 7636 example challenge from its verifier', async () => {
    expect(await s256Challenge(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
    expect(isS256Challenge(RFC_CHALLENGE)).toBe(true);
  });

  it('accepts the verifier the challenge was made from', async () => {
    expect(await verifiesS256(RFC_VERIFIER, RFC_CHALLENGE)).toBe(true);
  });

  it.each([
    ['another verifier', `${RFC_VERIFIER.slice(0, -1)}Y`, RFC_CHALLENGE],
    ['the challenge itself as verifier (plain)', RFC_CHALLENGE, RFC_CHALLENGE],
    ['a verifier under 43 characters', 'short', 'x'.repeat(43)],
    ['a verifier over 128 characters', 'a'.repeat(129), RFC_CHALLENGE],
    ['a verifier with a character outside the unreserved set', `${RFC_VERIFIER.slice(0, -1)}+`, RFC_CHALLENGE],
    ['a challenge that is no SHA-256 digest', RFC_VERIFIER, `${RFC_CHALLENGE}=`],
  ])('refuses %s', async (_case, verifier, challenge) => {
    expect(await verifiesS256(verifier, challenge)).toBe(false);
  });
});
