/**
 * The browser's network boundary, faked: a `fetch` that answers the portal API (by operationId,
 * with bodies typed by the SDK's generated types) and the OpenID provider. Every request is kept
 * so a test can assert what was sent.
 */
import { operations, type OperationId, type OperationResult } from '../../../sdk/src';
import type { ErrorEnvelope } from '../api/types';

export const ORIGIN = 'http://cms.test';
export const ISSUER = 'https://id.test';
type SuccessData<Id extends OperationId> = NonNullable<OperationResult<Id>['data']> extends { data: infer D } ? D : never;
type Answer<Id extends OperationId> = { status?: number; data: SuccessData<Id> } | { status: number; error: ErrorEnvelope } | FileAnswer;
/** A file the API answers as is (the error file of an import), not in the envelope. */
type FileAnswer = { file: string; type: string };
type Handler<Id extends OperationId> = (request: Request, params: Record<string, string>, body: unknown) => Answer<Id>;
type Route = { method: string; pattern: RegExp; names: string[]; handler: Handler<OperationId> };

export type Sent = { method: string; path: string; query: URLSearchParams; body: unknown; authorization: string | null };

function json(status: number, body: unknown, requestId?: string): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) } });
}

let failures = 0;

/** The API's failure envelope, as the Worker builds it (a request id of its own). */
export function envelope(code: ErrorEnvelope['error']['code'], message: string, errors: { path: string; message: string }[] = [{ path: '', message }]): ErrorEnvelope {
  failures += 1;
  return { success: false, data: null, message, errors, error: { code, message, request_id: `req_fake${failures}` } };
}

function base64url(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export class FakeNetwork {
  private readonly routes: Route[] = [];
  readonly sent: Sent[] = [];
  email = 'pm@example.com';

  /** Answers an operation of the API (the most recently registered answer wins). */
  on<Id extends OperationId>(id: Id, handler: Handler<Id> | Answer<Id>): this {
    const operation = operations[id];
    const names: string[] = [];
    const source = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const respond = typeof handler === 'function' ? handler : () => handler;
    this.routes.unshift({ method: operation.method.toUpperCase(), pattern: new RegExp(`^/api/v1${source}$`), names, handler: respond as Handler<OperationId> });
    return this;
  }

  sentTo(method: string, pathEnd: string): Sent[] {
    return this.sent.filter((entry) => entry.method === method && entry.path.endsWith(pathEnd));
  }

  private provider(url: URL): Response {
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/authorize`,
        token_endpoint: `${ISSUER}/token`,
        end_session_endpoint: `${ISSUER}/logout`,
        userinfo_endpoint: `${ISSUER}/userinfo`,
        jwks_uri: `${ISSUER}/jwks`,
      });
    }
    if (url.pathname === '/token') {
      const now = Math.floor(Date.now() / 1000);
      const idToken = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url({ iss: ISSUER, aud: 'cms', sub: `dev|${this.email}`, email: this.email, iat: now, exp: now + 3600 })}.c2ln`;
      return json(200, { access_token: 'access-token-1', id_token: idToken, token_type: 'Bearer', expires_in: 3600, scope: 'openid profile email' });
    }
    return json(404, {});
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (url.origin === ISSUER) return this.provider(url);
    const text = request.body ? await request.text() : '';
    // A JSON body as a value; a file (an import's CSV) as its text.
    const body: unknown = text && /json/.test(request.headers.get('content-type') ?? 'application/json') ? JSON.parse(text) : text || undefined;
    this.sent.push({ method: request.method, path: url.pathname, query: url.searchParams, body, authorization: request.headers.get('authorization') });
    for (const route of this.routes) {
      const match = route.method === request.method ? route.pattern.exec(url.pathname) : null;
      if (!match) continue;
      const params = Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
      const answer = route.handler(request, params, body);
      if ('file' in answer) return new Response(answer.file, { status: 200, headers: { 'content-type': answer.type } });
      return 'error' in answer ? json(answer.status, answer.error, answer.error.error.request_id) : json(answer.status ?? 200, { success: true, data: answer.data });
    }
    const missing = envelope('NOT_FOUND', `No fake for ${request.method} ${url.pathname}`);
    return json(404, missing, missing.error.request_id);
  };

  /**
   * XMLHttpRequest as the CMS uses it for uploads (open, setRequestHeader, upload.onprogress,
   * onload, send), answered by this network's `fetch`; the upload reports half, then all of the body.
   */
  readonly XMLHttpRequest = fakeXhr(this.fetch);
}

function fakeXhr(send: (request: Request) => Promise<Response>) {
  return class FakeXhr {
    readonly upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    status = 0;
    responseText = '';
    private method = 'GET';
    private url = '';
    private readonly headers = new Headers();
    private answered = new Headers();

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers.set(name, value);
    }

    getResponseHeader(name: string) {
      return this.answered.get(name);
    }

    send(body: Blob) {
      const total = body.size;
      for (const loaded of [Math.floor(total / 2), total]) this.upload.onprogress?.({ lengthComputable: true, loaded, total });
      void send(new Request(new URL(this.url, ORIGIN), { method: this.method, headers: this.headers, body })).then(
        async (response) => {
          this.status = response.status;
          this.answered = response.headers;
          this.responseText = await response.text();
          this.onload?.();
        },
        () => this.onerror?.(),
      );
    }
  };
}
