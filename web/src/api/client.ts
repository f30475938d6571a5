/**
 * The one way the CMS talks to the API: the SDK's typed portal client (types generated from the
 * OpenAPI document, so a changed route breaks this build), plus `call()` which turns openapi-fetch's
 * `{ data, error, response }` into the success envelope's `data` or a thrown ApiFailure.
 */
import { createPortalClient } from '../../../sdk/src';
import { ApiFailure } from './errors';
import type { Portal } from './types';

type Result<D> = { data?: { data: D } | undefined; error?: unknown; response: Response };
type Outcome = { data?: object | undefined; error?: unknown; response: Response };

export type ApiOptions = {
  /** The current access token ('' when signed out). */
  token: () => string;
  /** Called on a 401: the session is gone, the person signs in again. */
  onUnauthenticated: () => void;
  fetch?: (request: Request) => Promise<Response>;
};

export type Api = {
  portal: Portal;
  /** The success envelope's `data`, or a thrown ApiFailure. */
  call: <D>(pending: Promise<Result<D>>) => Promise<D>;
  /** For operations whose success carries no data (`DELETE .../members/{id}`): resolves, or throws ApiFailure. */
  send: (pending: Promise<Outcome>) => Promise<void>;
};

export function apiBaseUrl(): string {
  return `${window.location.origin}/api/v1`;
}

export function createApi(options: ApiOptions): Api {
  const portal = createPortalClient({
    baseUrl: apiBaseUrl(),
    token: options.token,
    // Reads are retried by the SDK; a person waiting at a screen prefers a quick answer to a long backoff.
    retry: { maxRetries: 1 },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  async function settle<R extends Outcome>(pending: Promise<R>): Promise<R & { data: NonNullable<R['data']> }> {
    const result = await pending;
    if (result.response.status === 401) options.onUnauthenticated();
    if (result.error !== undefined || !result.data) throw new ApiFailure(result.response, result.error);
    return result as R & { data: NonNullable<R['data']> };
  }
  return {
    portal,
    call: async (pending) => (await settle(pending)).data.data,
    send: async (pending) => void (await settle(pending)),
  };
}
