import { z } from '@hono/zod-openapi';
import { apiKeyStatuses } from '../db/schema';
import { dateTime, optionalText, trimmedText } from './common';

const apiKeyFields = {
  id: z.string(),
  key_id: z.string().openapi({ description: 'Sent as X-Tenant-Key', example: 'key_3k9x2m7q4r8t5v1w' }),
  name: z.string(),
  label: z.string(),
  secret_prefix: z.string().openapi({ example: 'sk_ab12' }),
  secret_suffix: z.string().openapi({ example: 'wx9z' }),
  status: z.enum(apiKeyStatuses),
  created_at: dateTime,
  expires_at: dateTime.nullable(),
  last_used_at: dateTime.nullable(),
  updated_at: dateTime,
};

/** Spec "API key record (portal)": never carries the secret. */
export const apiKeySchema = z.strictObject(apiKeyFields).openapi('ApiKey');

/**
 * The create response: the record plus the signing secret, shown this once. Built from the fields,
 * not by extending ApiKey: an `allOf` with a closed ApiKey would forbid `secret` in the document.
 */
export const createdApiKeySchema = z
  .strictObject({
    ...apiKeyFields,
    secret: z.string().openapi({ description: 'The HMAC signing secret; store it now, it is never returned again' }),
  })
  .openapi('CreatedApiKey');

export const createApiKeyBodySchema = z
  .strictObject({
    name: trimmedText(100).openapi({ example: 'Production backend' }),
    label: optionalText(100, 'one').trim().optional().openapi({ description: 'Defaults to the name', example: 'prod-eu' }),
    expires_at: z.iso
      .datetime({ offset: true })
      .refine((value) => Date.parse(value) > Date.now(), 'Must be in the future')
      .optional()
      .openapi({ description: 'ISO 8601 date-time with Z or an offset, in the future; stored in UTC', example: '2027-01-01T00:00:00Z' }),
  })
  .openapi('CreateApiKeyBody');

export const listApiKeysQuerySchema = z.object({ status: z.enum(apiKeyStatuses).optional() });

export type ApiKeyView = z.infer<typeof apiKeySchema>;
export type CreatedApiKeyView = z.infer<typeof createdApiKeySchema>;
