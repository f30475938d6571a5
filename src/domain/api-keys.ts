import type { ApiKey, ApiKeyStatus } from '../db/schema';
import { randomToken } from '../lib/ids';

export type { ApiKeyStatus };

/** Revocation is what a person did; expiry follows from `expires_at` at the moment of reading. */
export function effectiveStatus(key: Pick<ApiKey, 'status' | 'expiresAt'>, nowIso: string): ApiKeyStatus {
  if (key.status === 'revoked') return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= nowIso) return 'expired';
  return 'active';
}

/**
 * Expiry is compared as text (here and in the gateway's D1 guard), which only orders correctly
 * when every value has the one `toISOString()` form; any accepted ISO input is brought to it.
 */
export function normalizeExpiry(value: string | undefined): string | null {
  return value === undefined ? null : new Date(value).toISOString();
}

/**
 * Active keys (neither revoked nor past `expires_at`) a tenant may hold at once. A backend needs one
 * per service and environment, two of one while it rotates; 20 leaves room for that and bounds what
 * each key costs (a row, cache entries, a per-key rate budget: minting keys must not buy load, and
 * the per-tenant rate limit is what bounds a tenant's requests). Revoked and expired keys do not count.
 */
export const MAX_ACTIVE_API_KEYS = 20;

/** 12 random bytes in base32: 20 characters of a-z and 2-7. */
const KEY_ID_BYTES = 12;
/** Every key id ever issued has this form; the gateway refuses anything else before any lookup. */
export const KEY_ID_FORMAT = /^key_[a-z2-7]{20}$/;

/** A new credential: the public key id (sent as X-Tenant-Key) and the signing secret (shown once). */
export function generateCredential() {
  const secret = `sk_${randomToken(32)}`;
  return {
    keyId: `key_${randomToken(KEY_ID_BYTES)}`,
    secret,
    secretPrefix: secret.slice(0, 7),
    secretSuffix: secret.slice(-4),
  };
}
