import { LoyaltyApiError } from '../../../sdk/src';

/** A refusal of the API (the SDK's error: status, envelope, code, request id), with the field errors a form shows. */
export class ApiFailure extends LoyaltyApiError {
  /** Field errors by request path (`rules.predicates.0.value`); the `""` path is the form as a whole. */
  get fieldErrors(): Record<string, string> {
    const byPath: Record<string, string> = {};
    for (const entry of this.envelope.errors) if (entry.path && !(entry.path in byPath)) byPath[entry.path] = entry.message;
    return byPath;
  }
}

/** What to show for any failure: the envelope's message, or a plain sentence when there is none (network down). */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiFailure) return error.message;
  if (error instanceof TypeError) return 'The API could not be reached. Check your connection and try again.';
  return error instanceof Error && error.message ? error.message : 'Something went wrong.';
}

/** The id to quote when reporting a failure of the API (shown under its message); none for a network failure. */
export function failureRequestId(error: unknown): string | undefined {
  return error instanceof ApiFailure ? error.requestId : undefined;
}
