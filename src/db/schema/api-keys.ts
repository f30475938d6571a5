import { sql } from 'drizzle-orm';
import { check, index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

export const apiKeyStoredStatuses = ['active', 'revoked'] as const;
/** The statuses the API shows: the stored ones plus `expired`, derived from `expires_at`. */
export const apiKeyStatuses = ['active', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof apiKeyStatuses)[number];

/**
 * Gateway credentials. `status` holds only what a person did (active or revoked); `expired` is
 * derived from `expires_at` when the key is read, so expiry needs no job to take effect.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: id(),
    tenantId: tenantId(),
    keyId: text('key_id').notNull().unique(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    /** AES-GCM ciphertext of the signing secret, base64 `iv.ciphertext`; never plaintext. */
    secretCiphertext: text('secret_ciphertext').notNull(),
    secretPrefix: text('secret_prefix').notNull(),
    secretSuffix: text('secret_suffix').notNull(),
    status: text('status', { enum: apiKeyStoredStatuses }).notNull().default('active'),
    expiresAt: text('expires_at'),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
    createdBy: text('created_by'),
    ...timestamps,
  },
  (t) => [index('api_keys_tenant_created').on(t.tenantId, t.createdAt)],
);

/**
 * Never holds a row: inserting one violates the check. The gateway batches
 * `INSERT ... SELECT WHERE NOT EXISTS (active key)` with a request's first query, so a revoked or
 * expired key aborts that whole D1 batch (reads and writes alike) without an extra round trip.
 */
export const apiKeyGuard = sqliteTable(
  'api_key_guard',
  { keyId: text('key_id').notNull() },
  () => [check('api_key_not_active', sql`0`)],
);

export type ApiKey = typeof apiKeys.$inferSelect;
