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
/** A file's answer: its body as openapi-fetch parsed it (`parseAs: 'blob'`). */
type FileOutcome = { data?: unknown; error?: unknown; response: Response };

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
  /** For operations that answer a file (`parseAs: 'blob'`): the file, or a thrown ApiFailure. */
  file: (pending: Promise<FileOutcome>) => Promise<Blob>;
  /**
   * Sends a file as the body of a POST to `path` (under /api/v1) with XMLHttpRequest, whose upload
   * events fetch does not offer: `onProgress` gets the share sent (0 to 1). The success envelope's
   * `data`, or a thrown ApiFailure, as `call`.
   */
  upload: <D>(path: string, file: Blob, onProgress: (sent: number) => void) => Promise<D>;
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
  async function upload<D>(path: string, file: Blob, onProgress: (sent: number) => void): Promise<D> {
    const response = await sendWithProgress(`${apiBaseUrl()}${path}`, file, options.token(), onProgress);
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status === 401) options.onUnauthenticated();
    if (!response.ok) throw new ApiFailure(response, body);
    return (body as { data: D }).data;
  }
  return {
    portal,
    call: async (pending) => (await settle(pending)).data.data,
    send: async (pending) => void (await settle(pending)),
    file: async (pending) => {
      const result = await pending;
      if (result.response.status === 401) options.onUnauthenticated();
      if (result.error !== undefined || !(result.data instanceof Blob)) throw new ApiFailure(result.response, result.error);
      return result.data;
    },
    upload,
  };
}

/** A POST of `file` through XMLHttpRequest, answered as a Response once complete. */
function sendWithProgress(url: string, file: Blob, token: string, onProgress: (sent: number) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Content-Type', file.type || 'text/csv');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const headers = new Headers();
      const requestId = request.getResponseHeader('x-request-id');
      if (requestId) headers.set('x-request-id', requestId);
      resolve(new Response(request.responseText, { status: request.status, headers }));
    };
    request.onerror = () => reject(new TypeError('The upload could not reach the API.'));
    request.send(file);
  });
}
