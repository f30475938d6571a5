/**
 * Gateway request signing (docs/GATEWAY-AUTH.md) over the exact request that is sent. The recipe
 * itself (canonical url, signing string, HMAC, body re-serialization) is the Worker's own module,
 * src/auth/signature.ts: it imports nothing and uses WebCrypto only (`npm run sdk:check` fails if
 * it ever imports anything), so the SDK and the verifier share one canonicalisation, not two.
 */
import { canonicalSignedUrl, hmacHex, reserializedBody, signingString } from '../../src/auth/signature';

export const KEY_HEADER = 'X-Tenant-Key';
export const TIMESTAMP_HEADER = 'X-Tenant-Timestamp';
export const SIGNATURE_HEADER = 'X-Tenant-Signature';
export const IDEMPOTENCY_HEADER = 'X-Idempotency-Key';

/** Verbs whose JSON body is part of the signing string (every other verb signs the empty string). */
const BODY_SIGNED = new Set(['POST', 'PUT', 'PATCH']);
export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The body as the server will hash it must be the body as sent: the server signs
 * `JSON.stringify(JSON.parse(body))`, so a body that is not already that string (pretty-printed
 * JSON from a custom bodySerializer, `1.0`, `\u` escapes) could never verify. Refused here with a
 * message instead of a 401 from the server.
 */
export function assertSignableBody(body: string): void {
  if (reserializedBody(body) !== body) {
    throw new Error('Gateway request bodies must be compact JSON as JSON.stringify writes it (the server signs the re-serialized body); use the default bodySerializer');
  }
}

export type SigningInput = { keyId: string; secret: string; method: string; url: string; body: string; timestamp: number };

/** The three authentication headers of one attempt: `timestamp + METHOD + canonical url + body`. */
export async function gatewayHeaders(input: SigningInput): Promise<Record<string, string>> {
  const method = input.method.toUpperCase();
  const timestamp = String(input.timestamp);
  const body = BODY_SIGNED.has(method) ? input.body : '';
  const message = signingString({ timestamp, method, url: canonicalSignedUrl(input.url), body });
  return { [KEY_HEADER]: input.keyId, [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: await hmacHex(input.secret, message) };
}

/** Distinct writes must not share a signature (it is single-use per idempotency key). */
const REMEMBERED = 1000;

/**
 * Timestamps for signed writes such that this client never signs two writes with the same signing
 * string: two identical writes in one second (same method, url and body) would otherwise have the
 * same signature, and the second, with its own idempotency key, would be refused with 401
 * SIGNATURE_REPLAYED. Each repeat takes the second after the last one used. Reads are not
 * single-use and always take the current second.
 */
export function writeTimestamps(nowSeconds: () => number) {
  const last = new Map<string, number>();
  return (method: string, url: string, body: string): number => {
    const now = nowSeconds();
    if (!WRITES.has(method.toUpperCase())) return now;
    const id = `${method.toUpperCase()} ${canonicalSignedUrl(url)} ${body}`;
    const previous = last.get(id);
    const timestamp = previous === undefined ? now : Math.max(now, previous + 1);
    last.delete(id);
    last.set(id, timestamp);
    // Oldest first (Map order): past the tolerance window they can no longer collide anyway.
    for (const key of last.keys()) {
      if (last.size <= REMEMBERED) break;
      last.delete(key);
    }
    return timestamp;
  };
}
