/**
 * Gateway request signing (spec: Authentication). Pure WebCrypto, shared by the Worker, the tests
 * and `npm run gateway`, so client and server can never drift apart.
 */
const encoder = new TextEncoder();

/**
 * Spec rule 2: the server hashes the re-serialization of the parsed JSON body, not the raw bytes.
 * A body that is not JSON is kept as sent (the route answers it with 400 after authentication).
 */
export function reserializedBody(raw: string): string {
  if (raw === '') return '';
  try {
    return JSON.stringify(JSON.parse(raw));
  } catch {
    return raw;
  }
}

/** `timestamp + METHOD + url + body`, concatenated with nothing between. */
export function signingString(parts: { timestamp: string; method: string; url: string; body: string }): string {
  return `${parts.timestamp}${parts.method}${parts.url}${parts.body}`;
}

/** Imported non-extractable: WebCrypto never hands its bytes back (exportKey refuses), so holding one is not holding the secret in readable form. */
function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/** The HMAC-SHA256 key of a secret, for `signatureFailure` only (the gateway keeps one per API key in isolate memory). */
export function importVerifyKey(secret: string): Promise<CryptoKey> {
  return hmacKey(secret, 'verify');
}

function toHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Lowercase hex SHA-256 of `text` (UTF-8): the Worker's digests (idempotency fingerprints, cache keys of tokens), here beside the hex of the signatures. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** A well-formed signature: lowercase hex of the 32 bytes of an HMAC-SHA256. */
export const SIGNATURE_FORMAT = /^[0-9a-f]{64}$/;
export const MALFORMED_SIGNATURE = 'Signature is not lowercase hex HMAC-SHA256';

// Uint8Array<ArrayBuffer>: WebCrypto takes no SharedArrayBuffer views (TS 5.9 DOM types, scripts/ under tsconfig.node.json).
function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!SIGNATURE_FORMAT.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** Lowercase hex HMAC-SHA256 of `message` under `secret`. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), encoder.encode(message));
  return toHex(signature);
}

/** The signed url starts at the version prefix (spec: Versioning). */
export const SIGNED_URL_PREFIX = '/api/v1';

/** Any special scheme serializes path and query alike; this host is never contacted. */
const PATH_ONLY_BASE = 'https://canonical.invalid';

/**
 * The url part of the signing string: path and query of the URL's WHATWG URL Standard
 * serialization (`new URL(url).href`). The Worker never sees the request target as sent, only the
 * runtime's parse of it, so that is the one form both sides can compute: dot segments resolved,
 * space, `"`, `<`, `>` (and `` ` ``, `{`, `}`, `^` in the path, `'` in the query) and non-ASCII
 * percent-encoded, existing `%xx` kept as written, the fragment (never sent) dropped. Takes a path
 * (`/api/v1/...`) or an absolute URL; host and port are not signed. Idempotent.
 * @example canonicalSignedUrl("/api/v1/gateway/./tiers?tier_name=a'b") // "/api/v1/gateway/tiers?tier_name=a%27b"
 */
export function canonicalSignedUrl(url: string): string {
  // Concatenated rather than resolved against a base, so `//x` stays a path as in a request line.
  const parsed = new URL(url.startsWith('/') ? `${PATH_ONLY_BASE}${url}` : url);
  parsed.hash = '';
  // `href` rather than pathname + search: it keeps a bare trailing `?`, as the runtime does.
  const { href } = parsed;
  return href.slice(href.indexOf('/', parsed.protocol.length + 2));
}

/** The url as a client may have written it before the parser percent-encoded it, if it differs. */
function unencodedUrl(url: string): string | undefined {
  try {
    const decoded = decodeURI(url);
    return decoded === url ? undefined : decoded;
  } catch {
    return undefined;
  }
}

export type SigningParts = { timestamp: string; method: string; url: string; body: string };

function sortedQuery(url: string): string {
  const [path, query] = url.split(/\?(.*)/s, 2);
  return `${path}?${(query ?? '').split('&').sort().join('&')}`;
}

/**
 * Requests a client would have signed after a common mistake, with the check each one fails,
 * in the spec's checking order: body, url, verb.
 */
function mistakes(parts: SigningParts, rawBody: string): Array<[reason: string, signed: SigningParts]> {
  const { url } = parts;
  const query = url.indexOf('?');
  const withoutQuery = query < 0 ? undefined : url.slice(0, query);
  const withoutPrefix = url.startsWith(`${SIGNED_URL_PREFIX}/`) ? url.slice(SIGNED_URL_PREFIX.length) : undefined;
  const unencoded = unencodedUrl(url);
  const urlDiffers = 'Signed url differs from the sent url';
  const candidates: Array<[string, SigningParts | undefined]> = [
    ['Signed body differs from the sent body (the signature covers an empty body)', parts.body === '' ? undefined : { ...parts, body: '' }],
    [
      'Signed body differs from the sent body (the server hashes the body re-serialized as compact JSON; sign and send that exact string)',
      rawBody === parts.body ? undefined : { ...parts, body: rawBody },
    ],
    [`${urlDiffers} (sign the path from ${SIGNED_URL_PREFIX} on)`, withoutPrefix === undefined ? undefined : { ...parts, url: withoutPrefix }],
    [`${urlDiffers} (the query string is part of the signed url)`, withoutQuery === undefined ? undefined : { ...parts, url: withoutQuery }],
    [
      `${urlDiffers} (sign the path from ${SIGNED_URL_PREFIX} on, query string included)`,
      withoutPrefix === undefined || withoutQuery === undefined ? undefined : { ...parts, url: withoutQuery.slice(SIGNED_URL_PREFIX.length) },
    ],
    [
      `${urlDiffers} (query parameters are signed in the order sent)`,
      withoutQuery === undefined || sortedQuery(url) === url ? undefined : { ...parts, url: sortedQuery(url) },
    ],
    [
      `${urlDiffers} (sign the canonical url, as the server parses it: e.g. a space is sent as %20 and ' in the query as %27)`,
      unencoded === undefined ? undefined : { ...parts, url: unencoded },
    ],
    ['Verb in the signing string is not uppercase', parts.method === parts.method.toLowerCase() ? undefined : { ...parts, method: parts.method.toLowerCase() }],
  ];
  return candidates.filter((candidate): candidate is [string, SigningParts] => candidate[1] !== undefined);
}

/**
 * Checks `signatureHex` against `parts` (constant-time, WebCrypto verify), with the secret or its
 * key from `importVerifyKey`. On a mismatch it names
 * the failed check by testing which common client mistake the signature does match. Only a holder
 * of the secret can sign such a variant, so the diagnosis tells nobody else anything. Returns
 * undefined when the signature is valid, else the reason ("Signature mismatch" when none fits,
 * e.g. a body changed after signing or the secret of another key).
 */
export async function signatureFailure(
  secret: string | CryptoKey,
  parts: SigningParts,
  signatureHex: string,
  rawBody = parts.body,
): Promise<string | undefined> {
  const signature = fromHex(signatureHex);
  if (!signature) return MALFORMED_SIGNATURE;
  const key = typeof secret === 'string' ? await importVerifyKey(secret) : secret;
  const matches = (signed: SigningParts) => crypto.subtle.verify('HMAC', key, signature, encoder.encode(signingString(signed)));
  if (await matches(parts)) return undefined;
  for (const [reason, signed] of mistakes(parts, rawBody)) {
    if (await matches(signed)) return reason;
  }
  return 'Signature mismatch';
}

export type SignedRequestInput = {
  keyId: string;
  secret: string;
  method: string;
  /** Path and query from `/api/v1` (or the absolute URL), as it will be sent; signed in canonical form. */
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
  const message = signingString({ timestamp, method, url: canonicalSignedUrl(input.url), body: input.body ?? '' });
  return {
    'X-Tenant-Key': input.keyId,
    'X-Tenant-Timestamp': timestamp,
    'X-Tenant-Signature': await hmacHex(input.secret, message),
  };
}
