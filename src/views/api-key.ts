import type { ApiKey } from '../db/schema';
import { effectiveStatus } from '../domain/api-keys';
import { isoNow } from '../lib/time';
import type { ApiKeyView } from '../schemas/api-key';

/** The portal record of a key: status as of `nowIso` (expiry is derived), never the secret. */
export function toApiKeyView(key: ApiKey, nowIso = isoNow()): ApiKeyView {
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
