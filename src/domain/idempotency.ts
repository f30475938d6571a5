/**
 * `X-Idempotency-Key`: 1-255 printable ASCII characters (U+0020-U+007E), the characters of the
 * IETF draft's structured-field string, taken as sent (no quotes are removed), so no control or
 * non-ASCII byte reaches storage or logs. The middleware checks it and the document states it as
 * the header's `pattern` (docs/decisions/0010-idempotency-keys.md).
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);
