import { and, count, desc, eq, gt, isNull, lte, or, type SQL } from 'drizzle-orm';
import { encryptSecret } from '../auth/secret-box';
import type { Database } from '../db/client';
import { apiKeys, type ApiKey } from '../db/schema';
import { cacheApiKey } from '../data/api-key-cache';
import { effectiveStatus, generateCredential, type ApiKeyStatus } from '../domain/api-keys';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { offsetOf, pageOf, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';

export type ApiKeyRecord = {
  id: string;
  key_id: string;
  name: string;
  label: string;
  secret_prefix: string;
  secret_suffix: string;
  status: ApiKeyStatus;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  updated_at: string;
};

export function toApiKeyRecord(key: ApiKey, nowIso = isoNow()): ApiKeyRecord {
  return {
    id: key.id,
    key_id: key.keyId,
    name: key.name,
    label: key.label,
    secret_prefix: key.secretPrefix,
    secret_suffix: key.secretSuffix,
    status: effectiveStatus(key, nowIso),
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    updated_at: key.updatedAt,
  };
}

export type CreateApiKeyInput = { name: string; label?: string; expiresAt?: string; createdBy?: string };

/** Creates a key; the plaintext secret is returned here once and only stored encrypted. */
export async function createApiKey(db: Database, kv: KVNamespace, encryptionKey: string, tenantId: string, input: CreateApiKeyInput) {
  const credential = generateCredential();
  const [key] = await db
    .insert(apiKeys)
    .values({
      id: newId('apk'),
      tenantId,
      keyId: credential.keyId,
      name: input.name,
      label: input.label ?? input.name,
      secretCiphertext: await encryptSecret(encryptionKey, credential.secret),
      secretPrefix: credential.secretPrefix,
      secretSuffix: credential.secretSuffix,
      expiresAt: input.expiresAt ?? null,
      createdBy: input.createdBy ?? null,
    })
    .returning();
  if (!key) throw new Error('api key insert returned nothing');
  await cacheApiKey(kv, key);
  return { record: toApiKeyRecord(key), secret: credential.secret };
}

function statusFilter(status: ApiKeyStatus, nowIso: string): SQL | undefined {
  const notExpired = or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, nowIso));
  if (status === 'revoked') return eq(apiKeys.status, 'revoked');
  if (status === 'expired') return and(eq(apiKeys.status, 'active'), lte(apiKeys.expiresAt, nowIso));
  return and(eq(apiKeys.status, 'active'), notExpired);
}

/** Newest first, optionally filtered by effective status. */
export async function listApiKeys(db: Database, tenantId: string, params: PageParams & { status?: ApiKeyStatus }) {
  const nowIso = isoNow();
  const where = and(eq(apiKeys.tenantId, tenantId), params.status ? statusFilter(params.status, nowIso) : undefined);
  const [rows, [total]] = await db.batch([
    db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(apiKeys).where(where),
  ]);
  return pageOf(rows.map((key) => toApiKeyRecord(key, nowIso)), total?.value ?? 0, params);
}

/**
 * Revokes a key at once and for good. D1 is the source of truth (the gateway confirms status
 * there on every request); KV is updated too so other locations reject it without a D1 lookup.
 */
export async function revokeApiKey(db: Database, kv: KVNamespace, tenantId: string, id: string): Promise<ApiKeyRecord> {
  const now = isoNow();
  const existing = await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId)) });
  if (!existing) throw ApiError.notFound('API key');
  if (existing.status === 'revoked') return toApiKeyRecord(existing, now);
  const [revoked] = await db
    .update(apiKeys)
    .set({ status: 'revoked', revokedAt: now, updatedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId)))
    .returning();
  if (!revoked) throw ApiError.notFound('API key');
  await cacheApiKey(kv, revoked);
  return toApiKeyRecord(revoked, now);
}
