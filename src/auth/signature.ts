/**
 * Gateway request signing (spec: Authentication). Pure WebCrypto, shared by the Worker, the tests
 * and `npm run gateway`, so client and server can never drift apart.
 */
const encoder = new TextEncoder();

/** `timestamp + METHOD + url + body`, concatenated with nothing between. */
export function signingString(parts: { timestamp: string; method: string; url: string; body: string }): string {
  return `${parts.timestamp}${parts.method}${parts.url}${parts.body}`;
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function toHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** Lowercase hex HMAC-SHA256 of `message` under `secret`. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), encoder.encode(message));
  return toHex(signature);
}

/** Constant-time check (WebCrypto verify) of a lowercase hex signature. */
export async function verifyHmacHex(secret: string, message: string, signatureHex: string): Promise<boolean> {
  const signature = fromHex(signatureHex);
  if (!signature) return false;
  return crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), signature, encoder.encode(message));
}

export type SignedRequestInput = {
  keyId: string;
  secret: string;
  method: string;
  /** Path and query from `/api/v1`, exactly as it will be sent. */
  url: string;
  /** The exact JSON string that will be sent (writes), or undefined. */
  body?: string;
  timestamp?: number;
};

/**
 * The three gateway headers for a request.
 * @example
 * const headers = await signRequest({ keyId, secret, method: 'GET', url: '/api/v1/gateway/tiers' });
 */
export async function signRequest(input: SignedRequestInput): Promise<Record<string, string>> {
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const method = input.method.toUpperCase();
  const message = signingString({ timestamp, method, url: input.url, body: input.body ?? '' });
  return {
    'X-Tenant-Key': input.keyId,
    'X-Tenant-Timestamp': timestamp,
    'X-Tenant-Signature': await hmacHex(input.secret, message),
  };
}
