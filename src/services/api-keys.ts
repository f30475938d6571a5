import { encryptSecret } from '../auth/secret-box';
import type { Database } from '../db/client';
import type { ApiKeyStatus } from '../db/schema';
import { cacheApiKey } from '../data/api-key-cache';
import { findApiKeyPage, insertApiKeyWithinCap, markApiKeyRevoked } from '../data/api-keys';
import { generateCredential, MAX_ACTIVE_API_KEYS, normalizeExpiry } from '../domain/api-keys';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { ApiKeyView } from '../schemas/api-key';
import { toApiKeyView } from '../views/api-key';

export type CreateApiKeyInput = { name: string; label?: string; expiresAt?: string; createdBy?: string };

/**
 * Creates a key; the plaintext secret is returned here once and only stored encrypted. The key is
 * cached at once so its first gateway request needs no D1 lookup. A tenant holding
 * MAX_ACTIVE_API_KEYS active keys is refused (409) until it revokes one.
 */
export async function createApiKey(db: Database, kv: KVNamespace, encryptionKey: string, tenantId: string, input: CreateApiKeyInput) {
  const credential = generateCredential();
  const row = {
    id: newId('apk'),
    tenantId,
    keyId: credential.keyId,
    name: input.name,
    label: input.label ?? input.name,
    secretCiphertext: await encryptSecret(encryptionKey, credential.secret),
    secretPrefix: credential.secretPrefix,
    secretSuffix: credential.secretSuffix,
    expiresAt: normalizeExpiry(input.expiresAt),
    createdBy: input.createdBy ?? null,
  };
  const key = await insertApiKeyWithinCap(db, row, isoNow());
  if (!key) throw new ApiError('CONFLICT', `A tenant has at most ${MAX_ACTIVE_API_KEYS} active API keys (neither revoked nor expired): revoke one first`);
  await cacheApiKey(kv, key);
  return { record: toApiKeyView(key), secret: credential.secret };
}

/** Newest first, optionally filtered by effective status. */
export async function listApiKeys(db: Database, tenantId: string, params: PageParams & { status?: ApiKeyStatus }): Promise<Page<ApiKeyView>> {
  const nowIso = isoNow();
  const { rows, total } = await findApiKeyPage(db, tenantId, params, nowIso);
  return pageOf(rows.map((key) => toApiKeyView(key, nowIso)), total, params);
}

/**
 * Revokes a key at once and for good (idempotent). D1 is the source of truth: the gateway confirms
 * the key there on every request. KV and this isolate's memory are updated too, so they answer
 * the revoked key without a D1 lookup.
 */
export async function revokeApiKey(db: Database, kv: KVNamespace, tenantId: string, id: string): Promise<ApiKeyView> {
  const nowIso = isoNow();
  const revoked = await markApiKeyRevoked(db, tenantId, id, nowIso);
  if (!revoked) throw ApiError.notFound('API key');
  await cacheApiKey(kv, revoked);
  return toApiKeyView(revoked, nowIso);
}
