/**
 * AES-256-GCM encryption of API key signing secrets at rest. HMAC verification needs the secret
 * itself, so it is stored encrypted (never hashed, never plaintext) under API_KEY_ENCRYPTION_KEY.
 * Stored form: base64(iv) + "." + base64(ciphertext).
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}

/** The last encryption key imported (one per deployment): an import per secret would be repeated work. */
let lastImport: { base64Key: string; key: Promise<CryptoKey> } | undefined;

function importKey(base64Key: string): Promise<CryptoKey> {
  if (lastImport?.base64Key === base64Key) return lastImport.key;
  const raw = fromBase64(base64Key);
  if (raw.length !== 32) return Promise.reject(new Error('API_KEY_ENCRYPTION_KEY must be 32 bytes, base64'));
  const key = crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  lastImport = { base64Key, key };
  return key;
}

export async function encryptSecret(base64Key: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await importKey(base64Key), encoder.encode(plaintext));
  return `${toBase64(iv)}.${toBase64(new Uint8Array(cipher))}`;
}

export async function decryptSecret(base64Key: string, stored: string): Promise<string> {
  const [iv, cipher] = stored.split('.');
  if (!iv || !cipher) throw new Error('Malformed encrypted secret');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, await importKey(base64Key), fromBase64(cipher));
  return decoder.decode(plain);
}
