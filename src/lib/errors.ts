/**
 * The one error vocabulary of the API. Every failure is an ApiError (or is turned into one by the
 * error handler), and its HTTP status comes from this table only, so the OpenAPI document and the
 * runtime cannot disagree.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  MALFORMED_REQUEST: 400,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  UNAUTHENTICATED: 401,
  AUTH_INVALID_CREDENTIALS: 401,
  SIGNATURE_REPLAYED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  INVALID_STATUS_TRANSITION: 409,
  CUSTOMER_NOT_ACTIVE: 409,
  REWARD_NOT_ACTIVE: 409,
  OUT_OF_STOCK: 409,
  NOT_ELIGIBLE: 409,
  INSUFFICIENT_XP: 409,
  NOT_REVERSIBLE: 409,
  CREDIT_SETTLING: 409,
  REVERSAL_EXCEEDS_CREDIT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  ONCHAIN_BUDGET_EXHAUSTED: 429,
  INTERNAL: 500,
  SERVICE_MISCONFIGURED: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export type ErrorStatus = (typeof errorStatus)[ErrorCode];

export type FieldError = { path: string; message: string };

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly errors: FieldError[];

  /**
   * @example throw new ApiError('NOT_FOUND', 'Cohort not found')
   * @example throw new ApiError('VALIDATION_FAILED', 'Invalid value', { path: 'values.age' })
   */
  constructor(code: ErrorCode, message: string, detail: { path?: string; errors?: FieldError[] } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = errorStatus[code];
    this.errors = detail.errors?.length ? detail.errors : [{ path: detail.path ?? '', message }];
  }

  static notFound(what: string): ApiError {
    return new ApiError('NOT_FOUND', `${what} not found`);
  }
}
