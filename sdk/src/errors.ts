/**
 * A refusal of the API as an error to throw: the HTTP status, the failure envelope (`code`,
 * `message`, field `errors`) and the request id to quote when reporting it.
 * @example
 * const earned = await gateway.gatewayEarnXp({ body });
 * if (earned.error) throw new LoyaltyApiError(earned.response, earned.error);
 * // later: `${error.code}: ${error.message} (request id ${error.requestId})`
 */
import type { components } from './schema';

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
export type ErrorCode = ErrorEnvelope['error']['code'];

function isEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  if (!('message' in value && typeof value.message === 'string' && 'errors' in value && Array.isArray(value.errors))) return false;
  return 'error' in value && typeof value.error === 'object' && value.error !== null && 'code' in value.error;
}

/** The body's `error.request_id`, if it has one (bodies are not validated: an older server's has none). */
function bodyRequestId(envelope: ErrorEnvelope): string | undefined {
  const id: unknown = envelope.error.request_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export class LoyaltyApiError extends Error {
  readonly status: number;
  /** The failure envelope; a body that was not one (e.g. a proxy's page) gets a generic one with code `INTERNAL`. */
  readonly envelope: ErrorEnvelope;
  /**
   * The server's id of this request: the body's `error.request_id`, else the `X-Request-Id` header.
   * Quote it when you report the error (the same id is in the server's log line). A replayed
   * idempotent write answers the first request's body, so this names the first request. Undefined
   * only when the answer carried neither, i.e. it did not come from the API.
   */
  readonly requestId: string | undefined;

  /** @param body openapi-fetch's `error` (the parsed body of a failure) */
  constructor(response: Response, body: unknown) {
    const header = response.headers.get('x-request-id') ?? undefined;
    const readable = isEnvelope(body);
    const message = readable ? body.message : `The API answered ${response.status} without a readable error.`;
    super(message);
    this.name = 'LoyaltyApiError';
    this.status = response.status;
    this.envelope = readable
      ? body
      : { success: false, data: null, message, errors: [{ path: '', message }], error: { code: 'INTERNAL', message, request_id: header ?? '' } };
    this.requestId = (readable ? bodyRequestId(body) : undefined) ?? header;
  }

  get code(): ErrorCode {
    return this.envelope.error.code;
  }
}
