/**
 * The gateway client (a tenant's backend): every request signed with the API key, every write given
 * an idempotency key (the caller's, or a random UUID) kept across the client's own retries.
 * @example
 * const gateway = createGatewayClient({ baseUrl: 'https://loyalty.example.com/api/v1', keyId, secret });
 * const { data, error } = await gateway.gatewayEarnXp({ body: { user_id: 'cus_...', type: 'xp_earn', amount: '150' } });
 */
import createClient, { type Client } from 'openapi-fetch';
import { operationMethods, type GatewayPaths, type OperationMethods } from './methods';
import { errorCode, retryPolicy, sendWithRetries, type RetryOptions } from './retries';
import { bookmarkKeeper } from './bookmarks';
import { assertSignableBody, gatewayHeaders, IDEMPOTENCY_HEADER, WRITES, writeTimestamps } from './signing';

export type GatewayClientOptions = {
  /** Up to and including `/api/v1`, e.g. `https://loyalty.example.com/api/v1`. */
  baseUrl: string;
  /** The API key's `key_id` (`key_...`). */
  keyId: string;
  /** The API key's secret (`sk_...`), shown once when the key was created. */
  secret: string;
  retry?: RetryOptions;
  /** Another fetch (a test harness, a service binding); default globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Current time in ms (default Date.now): the signature's timestamp. */
  now?: () => number;
};

export type GatewayClient = OperationMethods<'gateway'> & {
  /** The typed openapi-fetch client of the gateway paths, signing and retrying alike. */
  client: Client<GatewayPaths>;
};

/** The fetch behind the client: one call of it is one logical request, sent as many times as retries allow. */
function signingFetch(options: GatewayClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const now = options.now ?? Date.now;
  const timestampFor = writeTimestamps(() => Math.floor(now() / 1000));
  const policy = retryPolicy(options.retry);
  // One key, one tenant: one scope of bookmarks.
  const bookmarks = bookmarkKeeper(() => options.keyId);
  return async (request) => {
    const method = request.method.toUpperCase();
    const write = WRITES.has(method);
    // Read once: every attempt sends (and signs) these same characters.
    const body = request.body === null ? '' : await request.text();
    if (body !== '') assertSignableBody(body);
    const headers = new Headers(request.headers);
    if (write && !headers.has(IDEMPOTENCY_HEADER)) headers.set(IDEMPOTENCY_HEADER, crypto.randomUUID());
    bookmarks.stamp(request.url, headers);
    const response = await sendWithRetries(
      {
        async prepare() {
          // Signed afresh per attempt: a retry after a long Retry-After still has a current timestamp.
          const timestamp = timestampFor(method, request.url, body);
          const signed = await gatewayHeaders({ keyId: options.keyId, secret: options.secret, method, url: request.url, body, timestamp });
          const attemptHeaders = new Headers(headers);
          for (const [name, value] of Object.entries(signed)) attemptHeaders.set(name, value);
          return new Request(request.url, { method, headers: attemptHeaders, body: body === '' ? undefined : body, signal: request.signal });
        },
        send,
        // GET/HEAD, and every write: it carries an idempotency key.
        idempotent: true,
        // Another client signed this same write in the same second: nothing ran, sign it again later.
        resendAtOnce: async (response) => write && response.status === 401 && (await errorCode(response)) === 'SIGNATURE_REPLAYED',
      },
      policy,
    );
    return bookmarks.keep(request.url, response);
  };
}

/** A gateway client: typed named methods (one per gateway operationId) and the raw openapi-fetch client. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const client = createClient<GatewayPaths>({ baseUrl: options.baseUrl, fetch: signingFetch(options) });
  return { ...operationMethods(client, 'gateway'), client };
}
