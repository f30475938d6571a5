import type { Context, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../app-env';
import type { ErrorEnvelope } from '../lib/envelope';
import { ChainConfigError } from '../chain/chains';
import { RelayerConfigError } from '../chain/relayer';
import { isGasBudgetExhausted } from '../data/gas-budget';
import { secondsUntilUtcMidnight } from '../domain/settlement';
import { ApiError, type ErrorCode } from '../lib/errors';
import { log } from '../lib/log';

/** HTTP errors raised inside Hono and its validators, in our vocabulary. */
const httpExceptionCodes: Record<number, ErrorCode> = {
  400: 'MALFORMED_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** Where Hono's own message does not tell the client what to do instead. */
const httpExceptionMessages: Partial<Record<number, string>> = {
  415: 'Send the body as JSON with Content-Type: application/json',
};

function toApiError(err: Error): ApiError | undefined {
  if (err instanceof ApiError) return err;
  // Drizzle wraps what a D1 call threw (e.g. the gateway key guard) in a query error.
  if (err.cause instanceof ApiError) return err.cause;
  // The operator's configuration, not the request, is at fault; their messages name the var, never its value.
  if (err instanceof ChainConfigError || err instanceof RelayerConfigError) return new ApiError('SERVICE_MISCONFIGURED', err.message);
  if (err instanceof HTTPException) {
    const code = httpExceptionCodes[err.status];
    if (code) return new ApiError(code, httpExceptionMessages[err.status] ?? (err.message || 'Request rejected'));
  }
  return undefined;
}

/** The failure envelope of `err`; `error.request_id` is the request's id, as in its `X-Request-Id` header and log lines (a replay of a stored failure answers this body, the first request's id included). */
export function errorBody(err: ApiError, requestId: string): ErrorEnvelope {
  return {
    success: false,
    data: null,
    errors: err.errors,
    message: err.message,
    error: { code: err.code, message: err.message, request_id: requestId },
  };
}

/** The one way a failure is answered: the envelope, with the request id that `identifyRequest` gave (src/middleware/init.ts). */
function answer<E extends AppEnv>(c: Context<E>, err: ApiError): Response {
  return c.json(errorBody(err, c.get('requestId')), err.status);
}

/**
 * A write that would start onchain work after the tenant's gas budget for the day ran out (the
 * trigger of src/db/sql/gas-budget.sql aborted its batch): retry once the UTC day is over.
 */
function gasBudgetRefusal(c: Context): ApiError {
  const retryAfter = secondsUntilUtcMidnight(new Date());
  c.header('Retry-After', String(retryAfter));
  return new ApiError(
    'ONCHAIN_BUDGET_EXHAUSTED',
    `This tenant's onchain gas budget for today is used up: work that settles onchain is refused until 00:00 UTC (in ${retryAfter} s); off-chain work goes on`,
  );
}

/**
 * The one place a failure becomes a response. Every 5xx is logged under the request id, so the id
 * a partner quotes finds the log line: a 500 logs the detail and answers a generic message naming
 * the id; any other 5xx (a 503 for the operator's configuration) logs the code and the message it
 * answers, which name a variable, never its value.
 */
export function onError<E extends AppEnv>(err: Error, c: Context<E>): Response {
  const requestId = c.get('requestId');
  const apiError = toApiError(err) ?? (isGasBudgetExhausted(err) ? gasBudgetRefusal(c) : undefined);
  if (apiError) {
    if (apiError.status >= 500) log('error', 'request answered 5xx', { request_id: requestId, status: apiError.status, code: apiError.code, reason: apiError.message });
    return answer(c, apiError);
  }
  log('error', 'request failed: internal error', { request_id: requestId, status: 500, error: err.name, reason: err.message, stack: err.stack });
  return answer(c, new ApiError('INTERNAL', `Internal error (request id ${requestId})`));
}

/** Where the API and its reference live (RFC 8631 link relations), for a request that missed them. */
const API_POINTERS = {
  message: 'The API is under /api/v1: its reference is at /api/v1/docs, its OpenAPI document at /api/v1/openapi.json',
  link: '</api/v1/docs>; rel="service-doc", </api/v1/openapi.json>; rel="service-desc"',
};

/**
 * A 404 in the envelope. Outside /api/v1 (the root included, until the CMS serves it) the answer
 * also says where the API and its docs are, in the message and a `Link` header.
 */
export const onNotFound: NotFoundHandler<AppEnv> = (c) => {
  const missed = `No route for ${c.req.method} ${c.req.path}`;
  if (c.req.path === '/api/v1' || c.req.path.startsWith('/api/v1/')) return answer(c, new ApiError('NOT_FOUND', missed));
  c.header('Link', API_POINTERS.link);
  return answer(c, new ApiError('NOT_FOUND', `${missed}. ${API_POINTERS.message}`));
};
