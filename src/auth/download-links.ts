/**
 * Signed download links for files the Worker serves outside the portal's bearer auth (a browser's
 * download of an export): the token names the tenant, the file's export and when it stops working,
 * and carries an HMAC-SHA256 of exactly that, under a key derived from API_KEY_ENCRYPTION_KEY by
 * HKDF with a label of its own (so the link key is never the key that encrypts secrets, and no new
 * configuration is needed). Token: `<tenantId>.<exportId>.<expires unix seconds>.<base64url mac>`.
 */
const encoder = new TextEncoder();
const LABEL = 'loyalty export download link v1';

export type DownloadLink = { tenantId: string; exportId: string; expiresAt: Date };
export type DownloadLinkCheck = { ok: true; link: DownloadLink } | { ok: false; reason: 'invalid' | 'expired' };

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

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined;
  return Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (ch) => ch.charCodeAt(0));
}

const ID = /^[a-z0-9]+_[a-z0-9]+$/;

/** Signs a link to the export's file valid until `expiresAt` (whole seconds). */
export async function signDownloadLink(base64Key: string, link: DownloadLink): Promise<string> {
  const signed = `${link.tenantId}.${link.exportId}.${Math.floor(link.expiresAt.getTime() / 1000)}`;
  const mac = await crypto.subtle.sign('HMAC', await linkKey(base64Key), encoder.encode(signed));
  return `${signed}.${base64url(new Uint8Array(mac))}`;
}

/**
 * What a token names, if this deployment signed it and it has not expired at `now`. The MAC is
 * checked by WebCrypto's verify (constant time) before the expiry is read, so only an authentic
 * token learns that it expired.
 */
export async function verifyDownloadLink(base64Key: string, token: string, now: Date): Promise<DownloadLinkCheck> {
  const parts = token.split('.');
  if (parts.length !== 4) return { ok: false, reason: 'invalid' };
  const [tenantId, exportId, expires, mac] = parts as [string, string, string, string];
  const macBytes = fromBase64url(mac);
  if (!ID.test(tenantId) || !ID.test(exportId) || !/^\d{1,12}$/.test(expires) || !macBytes) return { ok: false, reason: 'invalid' };
  const authentic = await crypto.subtle.verify('HMAC', await linkKey(base64Key), macBytes, encoder.encode(`${tenantId}.${exportId}.${expires}`));
  if (!authentic) return { ok: false, reason: 'invalid' };
  const expiresAt = new Date(Number(expires) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, link: { tenantId, exportId, expiresAt } };
}
