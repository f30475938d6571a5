import type { ErrorEnvelope } from './types';

/** A refusal of the API: its failure envelope (message, field errors, code) and the HTTP status. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly envelope: ErrorEnvelope;

  constructor(status: number, envelope: ErrorEnvelope) {
    super(envelope.message);
    this.name = 'ApiFailure';
    this.status = status;
    this.envelope = envelope;
  }

  get code(): ErrorEnvelope['error']['code'] {
    return this.envelope.error.code;
  }

  /** Field errors by request path (`rules.predicates.0.value`); the `""` path is the form as a whole. */
  get fieldErrors(): Record<string, string> {
    const byPath: Record<string, string> = {};
    for (const entry of this.envelope.errors) if (entry.path && !(entry.path in byPath)) byPath[entry.path] = entry.message;
    return byPath;
  }
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  return 'message' in value && typeof value.message === 'string' && 'errors' in value && Array.isArray(value.errors);
}

/** What to show for any failure: the envelope's message, or a plain sentence when there is none (network down). */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiFailure) return error.message;
  if (error instanceof TypeError) return 'The API could not be reached. Check your connection and try again.';
  return error instanceof Error && error.message ? error.message : 'Something went wrong.';
}

/** Builds an ApiFailure from an openapi-fetch `error` body; a body that is not our envelope gets a generic one. */
export function toFailure(status: number, body: unknown): ApiFailure {
  if (isEnvelope(body)) return new ApiFailure(status, body);
  const message = `The API answered ${status} without a readable error.`;
  return new ApiFailure(status, { success: false, data: null, message, errors: [{ path: '', message }], error: { code: 'INTERNAL', message } });
}
