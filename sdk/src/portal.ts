/**
 * The portal client (the CMS, people signed in at the identity provider): a bearer token on every
 * request. Reads are retried; portal writes take no idempotency key, so they are sent once.
 * @example
 * const portal = createPortalClient({ baseUrl: 'https://loyalty.example.com/api/v1', token: () => session.accessToken() });
 * const { data } = await portal.listRewards({ params: { path: { tenantId } } });
 */
import createClient, { type Client } from 'openapi-fetch';
import { operationMethods, type OperationMethods, type PortalPaths } from './methods';
import { bookmarkKeeper, tenantOfPortalUrl } from './bookmarks';
import { retryPolicy, sendWithRetries, type RetryOptions } from './retries';

export type PortalClientOptions = {
  /** Up to and including `/api/v1`, e.g. `https://loyalty.example.com/api/v1`. */
  baseUrl: string;
  /** The access token, or a function giving the current one (asked again for every attempt, so it may refresh). */
  token: string | (() => string | Promise<string>);
  retry?: RetryOptions;
  fetch?: (request: Request) => Promise<Response>;
};

export type PortalClient = OperationMethods<'portal'> & {
  /** The typed openapi-fetch client of the portal (and platform) paths. */
  client: Client<PortalPaths>;
};

const IDEMPOTENT = new Set(['GET', 'HEAD']);

function bearerFetch(options: PortalClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const given = options.token;
  const token = typeof given === 'string' ? () => given : given;
  const policy = retryPolicy(options.retry);
  const bookmarks = bookmarkKeeper(tenantOfPortalUrl);
  return async (request) => {
    const body = request.body === null ? undefined : await request.text();
    const response = await sendWithRetries(
      {
        async prepare() {
          const headers = new Headers(request.headers);
          headers.set('Authorization', `Bearer ${await token()}`);
          bookmarks.stamp(request.url, headers);
          return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
        },
        send,
        idempotent: IDEMPOTENT.has(request.method.toUpperCase()),
      },
      policy,
    );
    return bookmarks.keep(request.url, response);
  };
}

/** A portal client: typed named methods (one per portal and platform operationId) and the raw openapi-fetch client. */
export function createPortalClient(options: PortalClientOptions): PortalClient {
  const client = createClient<PortalPaths>({ baseUrl: options.baseUrl, fetch: bearerFetch(options) });
  return { ...operationMethods(client, 'portal'), client };
}
