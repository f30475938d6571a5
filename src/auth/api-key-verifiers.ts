import { BoundedMap } from '../lib/bounded-map';
import { decryptSecret } from './secret-box';
import { importVerifyKey } from './signature';

/**
 * The HMAC key of each API key this isolate checked a signature with, so a request of a known key
 * costs neither an AES-GCM decryption nor a key import. It is a non-extractable CryptoKey usable
 * only to verify: the plaintext secret exists only for the moment of the import, and nothing in
 * the isolate can read it back (docs/decisions/0059-gateway-key-caches-and-read-guard.md). Status is not cached
 * here: whether the key may be used is decided per request (cached record, then D1).
 */
type Verifier = { ciphertext: string; encryptionKey: string; key: Promise<CryptoKey> };

/** One per API key in use at this isolate; the oldest goes first past this. */
const MAX_VERIFIERS = 10_000;
const verifiers = new BoundedMap<string, Verifier>(MAX_VERIFIERS);

/** The verification key of the API key `keyId` whose secret is `ciphertext` under `encryptionKey`. */
export function apiKeyVerifier(encryptionKey: string, keyId: string, ciphertext: string): Promise<CryptoKey> {
  const known = verifiers.get(keyId);
  if (known && known.ciphertext === ciphertext && known.encryptionKey === encryptionKey) return known.key;
  const key = decryptSecret(encryptionKey, ciphertext).then(importVerifyKey);
  verifiers.set(keyId, { ciphertext, encryptionKey, key });
  // A failure (a secret that does not decrypt) is not remembered: the next request tries again.
  key.catch(() => {
    if (verifiers.get(keyId)?.key === key) verifiers.delete(keyId);
  });
  return key;
}

/** Drops the key of an API key that is revoked or expired: it will not verify anything again. */
export function forgetApiKeyVerifier(keyId: string): void {
  verifiers.delete(keyId);
}
