import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { apiKeys, type ApiKey } from '../db/schema';

/** What the gateway needs to check a signature. The secret stays encrypted in every cache. */
export type CachedApiKey = Pick<ApiKey, 'id' | 'keyId' | 'tenantId' | 'secretCiphertext' | 'status' | 'expiresAt'>;

const kvKey = (keyId: string) => `apikey:${keyId}`;

/**
 * Isolate memory, up to 60 s stale, then KV, up to 60 s stale between locations. Neither is
 * trusted for status: the gateway confirms the key against D1 in the request's first round trip.
 */
const MEMORY_TTL_MS = 60_000;
const KV_TTL_SECONDS = 24 * 60 * 60;
const memory = new Map<string, { entry: CachedApiKey; at: number }>();

export async function getCachedApiKey(kv: KVNamespace, keyId: string, now = Date.now()): Promise<CachedApiKey | undefined> {
  const hit = memory.get(keyId);
  if (hit && now - hit.at < MEMORY_TTL_MS) return hit.entry;
  const entry = await kv.get<CachedApiKey>(kvKey(keyId), 'json');
  if (entry) memory.set(keyId, { entry, at: now });
  return entry ?? undefined;
}

/** Writes the entry (a revoked key stays cached as revoked: a fast negative answer). */
export async function cacheApiKey(kv: KVNamespace, entry: CachedApiKey): Promise<void> {
  memory.set(entry.keyId, { entry, at: Date.now() });
  await kv.put(kvKey(entry.keyId), JSON.stringify(entry), { expirationTtl: KV_TTL_SECONDS });
}

export async function loadApiKeyForCache(db: Database, keyId: string): Promise<CachedApiKey | undefined> {
  return db.query.apiKeys.findFirst({
    columns: { id: true, keyId: true, tenantId: true, secretCiphertext: true, status: true, expiresAt: true },
    where: eq(apiKeys.keyId, keyId),
  });
}
