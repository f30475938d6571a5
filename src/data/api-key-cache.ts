import { eq } from 'drizzle-orm';
import { createDatabase, type Database } from '../db/client';
import { apiKeyDirectory, apiKeys, directoryTenants, type ApiKey } from '../db/schema';
import type { Shard } from './shards';
import { BoundedMap } from '../lib/bounded-map';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/**
 * What the gateway needs to check a signature, and the shard of the key's tenant (where its status
 * is confirmed and its request runs). The secret stays encrypted in every cache.
 */
export type CachedApiKey = Pick<ApiKey, 'id' | 'keyId' | 'tenantId' | 'secretCiphertext' | 'status' | 'expiresAt'> & { shard: string };

/** The KV key of a cached API key (exported for the round-trip tests, which seed KV alone). */
export const kvKey = (keyId: string) => `apikey:${keyId}`;

/**
 * Isolate memory, up to 60 s stale, then KV, up to 60 s stale between locations. Neither is
 * trusted for a key being active: the gateway confirms that against D1 in the request's first
 * round trip. A cached `revoked` (or passed `expires_at`) is trusted: revocation cannot be undone.
 */
const MEMORY_TTL_MS = 60_000;
const KV_TTL_SECONDS = 24 * 60 * 60;
/** Keys in use at this isolate; past this the oldest are dropped (and read from KV again if used). */
const MAX_MEMORY_ENTRIES = 10_000;
const memory = new BoundedMap<string, { entry: CachedApiKey; at: number }>(MAX_MEMORY_ENTRIES);

export async function getCachedApiKey(kv: KVNamespace, keyId: string, now = Date.now()): Promise<CachedApiKey | undefined> {
  const hit = memory.get(keyId);
  if (hit && now - hit.at < MEMORY_TTL_MS) return hit.entry;
  const stored = await kv.get<CachedApiKey>(kvKey(keyId), 'json');
  // An entry written before tenants had shards names none: read again, like a miss.
  const entry = stored && typeof stored.shard === 'string' ? stored : undefined;
  if (entry) memory.set(keyId, { entry, at: now });
  return entry;
}

/**
 * Writes the entry (a revoked key stays cached as revoked: a fast negative answer). Best effort: a
 * failed KV write is logged, not thrown, because D1 stays authoritative (a KV miss reads D1, a
 * stale `active` is refused by the D1 guard) and a portal create must not lose its one-time secret.
 */
export async function cacheApiKey(kv: KVNamespace, key: CachedApiKey, requestId?: string): Promise<void> {
  // Only the listed fields: a full row passed in must not put names or audit data into KV.
  const entry: CachedApiKey = {
    id: key.id,
    keyId: key.keyId,
    tenantId: key.tenantId,
    secretCiphertext: key.secretCiphertext,
    status: key.status,
    expiresAt: key.expiresAt,
    shard: key.shard,
  };
  memory.set(entry.keyId, { entry, at: Date.now() });
  await kv.put(kvKey(entry.keyId), JSON.stringify(entry), { expirationTtl: KV_TTL_SECONDS }).catch((error: unknown) => {
    log('error', 'api key cache write failed', { request_id: requestId, key_id: entry.keyId, tenant_id: entry.tenantId, reason: reasonOf(error) });
  });
}

/**
 * The key as the gateway caches it: its tenant and shard from the directory, then the key itself
 * from that shard (two round trips, on a cold cache only). Undefined for an unknown key.
 */
export async function loadApiKeyForCache(directory: Database, shards: readonly Shard[], keyId: string): Promise<CachedApiKey | undefined> {
  const [owner] = await directory
    .select({ tenantId: apiKeyDirectory.tenantId, shard: directoryTenants.shard })
    .from(apiKeyDirectory)
    .innerJoin(directoryTenants, eq(directoryTenants.id, apiKeyDirectory.tenantId))
    .where(eq(apiKeyDirectory.keyId, keyId))
    .limit(1);
  const shard = shards.find((candidate) => candidate.name === owner?.shard);
  if (!owner || !shard) return undefined;
  const [key] = await createDatabase(shard.d1)
    .select({ id: apiKeys.id, keyId: apiKeys.keyId, tenantId: apiKeys.tenantId, secretCiphertext: apiKeys.secretCiphertext, status: apiKeys.status, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyId, keyId))
    .limit(1);
  return key && key.tenantId === owner.tenantId ? { ...key, shard: shard.name } : undefined;
}

/** Re-reads a key from D1 into both caches (after D1 contradicted a cached `active`). */
export async function refreshCachedApiKey(directory: Database, shards: readonly Shard[], kv: KVNamespace, keyId: string, requestId?: string): Promise<void> {
  const key = await loadApiKeyForCache(directory, shards, keyId);
  if (key) await cacheApiKey(kv, key, requestId);
}
