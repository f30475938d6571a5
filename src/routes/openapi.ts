import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';
import { envelopeOf, errorEnvelopeSchema } from '../lib/envelope';
import { ApiError, type FieldError } from '../lib/errors';

/** zod issues -> one `{path, message}` per field; unknown keys are reported under their own name. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: 'Unknown field' }));
    }
    return [{ path: base.join('.'), message: issue.message }];
  });
}

/** Every router of the app: validation failures become the 422 envelope, never a bare zod error. */
export function createRouter<E extends AppEnv = AppEnv>() {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) {
        const errors = fieldErrors(result.error);
        throw new ApiError('VALIDATION_FAILED', 'The request is not valid', { errors });
      }
    },
  });
}

const statusDescriptions = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Validation failed',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service misconfigured (the message names the variable)',
} as const;

export type DocumentedStatus = keyof typeof statusDescriptions;

type ErrorResponse = { description: string; content: { 'application/json': { schema: typeof errorEnvelopeSchema } } };

export function errorResponse(status: DocumentedStatus): ErrorResponse {
  return { description: statusDescriptions[status], content: { 'application/json': { schema: errorEnvelopeSchema } } };
}

function errorResponsesOf<S extends DocumentedStatus>(statuses: S[]) {
  return Object.fromEntries([...new Set(statuses)].map((status) => [status, errorResponse(status)])) as Record<S, ErrorResponse>;
}

/**
 * The error responses a route documents, always with the one error envelope. Spread into `responses`.
 * Every route can answer 500, and 503 (the environment is checked on every request but `GET /info`).
 * List the route's own statuses (403 role, 404 resource, 409 state...); those implied by what the
 * operation takes (401, 400/413/415/422, idempotency) are added by `withImpliedStatuses`.
 */
export function errorResponses<S extends DocumentedStatus>(...statuses: S[]) {
  return errorResponsesOf<S | 500 | 503>([...statuses, 500, 503]);
}

/** For `GET /info` only: it answers whatever the configuration, so it never documents 503. */
export function errorResponsesWithoutMisconfiguration<S extends DocumentedStatus>(...statuses: S[]) {
  return errorResponsesOf<S | 500>([...statuses, 500]);
}

/** A success response whose body is the envelope around `data`. */
export function okResponse<T extends z.ZodType>(data: T, description: string) {
  return { description, content: { 'application/json': { schema: envelopeOf(data) } } };
}

/** A required JSON request body. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { required: true, description, content: { 'application/json': { schema } } };
}
