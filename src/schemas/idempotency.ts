import { z } from '@hono/zod-openapi';
import { IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency';

/**
 * Request header of every gateway write (checked by middleware/idempotency.ts, which answers 400
 * IDEMPOTENCY_KEY_REQUIRED before this schema is reached; declared here for the OpenAPI document).
 */
export const idempotencyHeaders = z.object({
  'x-idempotency-key': z
    .string()
    .min(1)
    .max(MAX_IDEMPOTENCY_KEY_LENGTH)
    .regex(IDEMPOTENCY_KEY_PATTERN)
    .openapi({
      description: `Client-chosen key, per tenant: 1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters (U+0020-U+007E; anything else is 400 IDEMPOTENCY_KEY_REQUIRED). A retry with the same key and body within 24 h is answered from the stored response`,
      example: 'order-1234-earn',
    }),
});

/** Response header on a replayed write. */
export const replayedResponseHeaders = {
  'Idempotent-Replayed': { description: '`true` when the response is the stored outcome of an earlier request with the same key', schema: { type: 'string' as const, enum: ['true'] } },
};
