import { encryptSecret } from '../auth/secret-box';
import type { ApiKeyStatus } from '../db/schema';
import { cacheApiKey } from '../data/api-key-cache';
import { findApiKeyPage, forgetApiKeyId, insertApiKeyWithinCap, markApiKeyRevoked, registerApiKeyId } from '../data/api-keys';
import { generateCredential, MAX_ACTIVE_API_KEYS, normalizeExpiry } from '../domain/api-keys';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { ApiKeyView } from '../schemas/api-key';
import { toApiKeyView } from '../views/api-key';
import type { ServiceContext } from './context';

export type CreateApiKeyInput = { name: string; label?: string; expiresAt?: string; createdBy?: string };
/** Where keys are kept besides D1: the secrets' encryption key and the KV cache the gateway reads. */
export type ApiKeyStores = { kv: KVNamespace; encryptionKey: string };

/**
 * Creates a key; the plaintext secret is returned here once and only stored encrypted. The key is
 * cached at once so its first gateway request needs no D1 lookup. A tenant holding
 * MAX_ACTIVE_API_KEYS active keys is refused (409) until it revokes one.
 */
export async function createApiKey({ db, directory, tenantId, now, shard, requestId }: ServiceContext, input: CreateApiKeyInput, { kv, encryptionKey }: ApiKeyStores) {
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
  const nowIso = isoNow(now());
  await registerApiKeyId(directory, row.keyId, tenantId, nowIso);
  const key = await insertApiKeyWithinCap(db, row, nowIso);
  if (!key) {
    await forgetApiKeyId(directory, row.keyId);
    throw new ApiError('CONFLICT', `A tenant has at most ${MAX_ACTIVE_API_KEYS} active API keys (neither revoked nor expired): revoke one first`);
  }
  await cacheApiKey(kv, { ...key, shard: shard.name }, requestId);
  return { record: toApiKeyView(key, nowIso), secret: credential.secret };
}

/** Newest first, optionally filtered by effective status. */
export async function listApiKeys({ db, tenantId, now }: ServiceContext, params: PageParams & { status?: ApiKeyStatus }): Promise<Page<ApiKeyView>> {
  const nowIso = isoNow(now());
  const { rows, total } = await findApiKeyPage(db, tenantId, params, nowIso);
  return pageOf(rows.map((key) => toApiKeyView(key, nowIso)), total, params);
}

/**
 * Revokes a key at once and for good (idempotent). D1 is the source of truth: the gateway confirms
 * the key there on every request. KV and this isolate's memory are updated too, so they answer
 * the revoked key without a D1 lookup.
 */
export async function revokeApiKey({ db, tenantId, now, shard, requestId }: ServiceContext, id: string, kv: KVNamespace): Promise<ApiKeyView> {
  const nowIso = isoNow(now());
  const revoked = await markApiKeyRevoked(db, tenantId, id, nowIso);
  if (!revoked) throw ApiError.notFound('API key');
  await cacheApiKey(kv, { ...revoked, shard: shard.name }, requestId);
  return toApiKeyView(revoked, nowIso);
}
