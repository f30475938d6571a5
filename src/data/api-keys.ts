import { and, count, desc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { apiKeyDirectory, apiKeys, type ApiKey, type ApiKeyStatus } from '../db/schema';
import { MAX_ACTIVE_API_KEYS } from '../domain/api-keys';
import { offsetOf, type PageParams } from '../lib/paging';
import { ONE_ROW, selectedRow } from './insert-select';
import { namedBatch } from './named-batch';

export type NewApiKey = Pick<
  ApiKey,
  'id' | 'tenantId' | 'keyId' | 'name' | 'label' | 'secretCiphertext' | 'secretPrefix' | 'secretSuffix' | 'expiresAt' | 'createdBy'
>;

const timestamp = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * Inserts the key unless the tenant already has MAX_ACTIVE_API_KEYS active ones (at `nowIso`); the
 * count is in the inserting statement, so creates at once cannot pass the cap together. Answers
 * the row, or undefined when refused.
 */
export async function insertApiKeyWithinCap(db: Database, row: NewApiKey, nowIso: string): Promise<ApiKey | undefined> {
  const active = and(eq(apiKeys.tenantId, row.tenantId), statusFilter('active', nowIso));
  const values = selectedRow(apiKeys, { ...row, status: 'active', lastUsedAt: null, revokedAt: null, createdAt: timestamp, updatedAt: timestamp });
  const { inserted } = await namedBatch(db, {
    insert: db.insert(apiKeys).select(db.select(values).from(ONE_ROW).where(sql`(select count(*) from ${apiKeys} where ${active}) < ${MAX_ACTIVE_API_KEYS}`)),
    inserted: db.select().from(apiKeys).where(and(eq(apiKeys.id, row.id), eq(apiKeys.tenantId, row.tenantId))),
  });
  return inserted[0];
}

/** The SQL form of `effectiveStatus` (domain/api-keys.ts): expired = active with `expires_at` passed. */
function statusFilter(status: ApiKeyStatus, nowIso: string): SQL | undefined {
  if (status === 'revoked') return eq(apiKeys.status, 'revoked');
  if (status === 'expired') return and(eq(apiKeys.status, 'active'), lte(apiKeys.expiresAt, nowIso));
  return and(eq(apiKeys.status, 'active'), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, nowIso)));
}

/** One page of the tenant's keys, newest first, and the total, in one round trip. */
export async function findApiKeyPage(db: Database, tenantId: string, params: PageParams & { status?: ApiKeyStatus }, nowIso: string) {
  const where = and(eq(apiKeys.tenantId, tenantId), params.status ? statusFilter(params.status, nowIso) : undefined);
  const [rows, [total]] = await db.batch([
    db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(apiKeys).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/**
 * Revokes in one statement and returns the row, or undefined when the tenant has no such key.
 * Revoking again changes nothing (revoked_at and updated_at keep the first revocation).
 */
export async function markApiKeyRevoked(db: Database, tenantId: string, id: string, nowIso: string): Promise<ApiKey | undefined> {
  const [key] = await db
    .update(apiKeys)
    .set({
      status: 'revoked',
      revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${nowIso})`,
      updatedAt: sql`case when ${apiKeys.status} = 'revoked' then ${apiKeys.updatedAt} else ${nowIso} end`,
    })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId)))
    .returning();
  return key;
}

/**
 * Records in the directory which tenant a key id belongs to, before the key is written to the
 * tenant's shard: a key the gateway can find is always in the directory (one left without its
 * shard row is simply unknown).
 */
export async function registerApiKeyId(directory: Database, keyId: string, tenantId: string, now: string): Promise<void> {
  await directory.insert(apiKeyDirectory).values({ keyId, tenantId, createdAt: now });
}

/** Forgets a key id whose key was never written (refused by the tenant's key cap). */
export async function forgetApiKeyId(directory: Database, keyId: string): Promise<void> {
  await directory.delete(apiKeyDirectory).where(eq(apiKeyDirectory.keyId, keyId));
}
