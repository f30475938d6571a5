/**
 * Identity rules of CMS people (docs/decisions/0035-identity-and-invitations.md). An account is its
 * identity provider `sub`; its email decides one thing only: which invitations it may take.
 */

/**
 * The form every email is stored and compared in: trimmed and lowercased (mail providers treat the
 * local part case-insensitively in practice, and an invitation typed `Jane@Example.com` must reach
 * the person whose token says `jane@example.com`).
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** What a verified token says about its person, in stored form; `email` is undefined when the token has none. */
export type SignInIdentity = { sub: string; email: string | undefined; emailVerified: boolean; username: string };

/** The stored side of an account that a sign-in refreshes. */
export type AccountIdentity = { email: string; emailVerified: boolean };

/**
 * The account state after this sign-in. A token without an email vouches for no address: the
 * stored email stays (it is only shown), but it no longer counts as verified.
 */
export function refreshedIdentity(stored: AccountIdentity, identity: SignInIdentity): AccountIdentity {
  if (identity.email === undefined) return { email: stored.email, emailVerified: false };
  return { email: identity.email, emailVerified: identity.emailVerified };
}

/**
 * Whether a sign-in must write: a new account, an email or verification that changed, or a pending
 * invitation this verified email may now take. Otherwise the sign-in stays one read.
 */
export function signInNeedsWrite(stored: AccountIdentity | undefined, identity: SignInIdentity, hasClaimableInvitation: boolean): boolean {
  if (!stored) return true;
  const next = refreshedIdentity(stored, identity);
  return next.email !== stored.email || next.emailVerified !== stored.emailVerified || (next.emailVerified && hasClaimableInvitation);
}
