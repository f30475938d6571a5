import type { JwksSource } from './jwks';

/**
 * What a portal token is checked against and what its verification yields: shared by the verifier
 * (jwt.ts) and the cache of verified tokens (verified-tokens.ts), which imports nothing else of it.
 */
export type PortalTokenConfig = { issuer: string; audience: string; jwks: JwksSource };

export type PortalClaims = {
  sub: string;
  email?: string;
  /**
   * True only when the identity provider vouches for `email`: the claim `true`, or the string
   * `"true"` (AWS Cognito sends its attributes as strings). Absent or anything else: not verified.
   */
  email_verified: boolean;
  preferred_username?: string;
  name?: string;
};
