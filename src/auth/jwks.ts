import type { HonoJsonWebKey as JWK } from 'hono/utils/jwt/jws';

/** How long fetched JWKS keys are trusted before a refetch; an unknown `kid` refetches sooner. */
const JWKS_TTL_MS = 10 * 60 * 1000;
/** Minimum gap between refetches forced by an unknown `kid` (protects the IdP from token spraying). */
const UNKNOWN_KID_REFETCH_MS = 30 * 1000;

type CachedJwks = { keys: JWK[]; fetchedAt: number };

/** Isolate-level cache of public keys per JWKS address (public data, safe to share across requests). */
const remoteCache = new Map<string, CachedJwks>();

async function fetchJwks(url: string): Promise<JWK[]> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`JWKS fetch failed with ${response.status}`);
  const body = (await response.json()) as { keys?: unknown };
  if (!Array.isArray(body.keys)) throw new Error('JWKS has no keys array');
  return body.keys as JWK[];
}

/** The last inline JWKS parsed: the same setting yields the same key objects (src/auth/jwt.ts compares them by identity). */
let lastInline: { json: string; keys: JWK[] } | undefined;

export function parseInlineJwks(json: string | undefined): JWK[] {
  if (!json) return [];
  if (lastInline?.json === json) return lastInline.keys;
  const parsed = JSON.parse(json) as { keys?: JWK[] };
  const keys = Array.isArray(parsed.keys) ? parsed.keys : [];
  lastInline = { json, keys };
  return keys;
}

export type JwksSource = { url?: string; inline?: string };

/**
 * The key with this `kid` from the inline JWKS and/or the remote one. Remote keys are cached; a
 * `kid` not in the cache triggers one refetch (key rotation) at most every 30 s. The same object
 * is returned until the key set is parsed or fetched anew.
 */
export async function findJwk(source: JwksSource, kid: string, now = Date.now()): Promise<JWK | undefined> {
  const inline = parseInlineJwks(source.inline).find((key) => key.kid === kid);
  if (inline || !source.url) return inline;
  const cached = remoteCache.get(source.url);
  const fresh = cached && now - cached.fetchedAt < JWKS_TTL_MS;
  const hit = fresh ? cached.keys.find((key) => key.kid === kid) : undefined;
  if (hit) return hit;
  if (fresh && now - cached.fetchedAt < UNKNOWN_KID_REFETCH_MS) return undefined;
  const keys = await fetchJwks(source.url);
  remoteCache.set(source.url, { keys, fetchedAt: now });
  return keys.find((key) => key.kid === kid);
}
