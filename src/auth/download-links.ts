/**
 * Signed download links for files the Worker serves outside the portal's bearer auth (a browser's
 * download of an export), in the manner of a presigned URL: the link names the export and when it
 * stops working, and carries an HMAC-SHA256 of exactly those, under a key derived from
 * API_KEY_ENCRYPTION_KEY by HKDF with a label of its own (so the link key is never the key that
 * encrypts secrets, and no new configuration is needed). Export ids are unique over all tenants,
 * so the export names its tenant.
 */
const encoder = new TextEncoder();
const LABEL = 'loyalty export download link v1';

export type DownloadLink = { exportId: string; expires: number; signature: string };
export type DownloadLinkCheck = { ok: true } | { ok: false; reason: 'invalid' | 'expired' };

/** The derived key of the last encryption key seen (one per deployment). */
let lastKey: { base64Key: string; key: Promise<CryptoKey> } | undefined;

function linkKey(base64Key: string): Promise<CryptoKey> {
  if (lastKey?.base64Key === base64Key) return lastKey.key;
  const key = (async () => {
    const raw = Uint8Array.from(atob(base64Key), (ch) => ch.charCodeAt(0));
    const master = await crypto.subtle.importKey('raw', raw, 'HKDF', false, ['deriveKey']);
    return crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(LABEL) },
      master,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      false,
      ['sign', 'verify'],
    );
  })();
  lastKey = { base64Key, key };
  return key;
}

/** The signature's form: base64url of 32 bytes, 43 characters. */
export const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43,43}$/;

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
const fromBase64url = (text: string) => Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (ch) => ch.charCodeAt(0));
const signedText = (exportId: string, expires: number) => `export:${exportId}:${expires}`;

/** Signs a link to the export's file valid until `expiresAt` (whole seconds, rounded down). */
export async function signDownloadLink(base64Key: string, exportId: string, expiresAt: Date): Promise<DownloadLink> {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const mac = await crypto.subtle.sign('HMAC', await linkKey(base64Key), encoder.encode(signedText(exportId, expires)));
  return { exportId, expires, signature: base64url(new Uint8Array(mac)) };
}

/**
 * Whether this deployment signed the link and it has not expired at `now`. The MAC is checked by
 * WebCrypto's verify (constant time) before the expiry is read, so only an authentic link learns
 * that it expired.
 */
export async function verifyDownloadLink(base64Key: string, link: DownloadLink, now: Date): Promise<DownloadLinkCheck> {
  if (!SIGNATURE_PATTERN.test(link.signature) || !Number.isSafeInteger(link.expires)) return { ok: false, reason: 'invalid' };
  const authentic = await crypto.subtle.verify('HMAC', await linkKey(base64Key), fromBase64url(link.signature), encoder.encode(signedText(link.exportId, link.expires)));
  if (!authentic) return { ok: false, reason: 'invalid' };
  return link.expires * 1000 > now.getTime() ? { ok: true } : { ok: false, reason: 'expired' };
}
