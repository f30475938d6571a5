import type { OpenAPIHono } from '@hono/zod-openapi';
import { ERROR_ENVELOPE } from '../lib/envelope';
import { BOOKMARK_FORMAT } from '../domain/shards';
import { SAFE_REQUEST_ID } from '../middleware/init';
import { errorResponse, type DocumentedStatus } from './openapi';

export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type PathItem = NonNullable<OpenApiDocument['paths']>[string];
type Operation = NonNullable<PathItem['get']>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const WRITES = new Set<string>(['post', 'put', 'patch', 'delete']);

type OperationResponse = NonNullable<Operation['responses']>[string];
type Implied = { status: DocumentedStatus; because: string; headers?: Extract<OperationResponse, { description: string }>['headers'] };

/** What a 429 carries (src/middleware/rate-limit.ts; draft-ietf-httpapi-ratelimit-headers). */
const RATE_LIMITED_HEADERS = {
  'Retry-After': { description: 'Seconds to wait: the policy\'s whole window (the limiter does not say when its window ends).', schema: { type: 'integer' } },
  RateLimit: {
    description: 'The exhausted policy: `"per-key";r=0;t=<seconds>` or `"per-tenant";r=0;t=<seconds>` (gateway), `"per-account";r=0;t=<seconds>` (portal).',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'The policies: `"per-key";q=<limit>;w=<seconds>, "per-tenant";q=<limit>;w=<seconds>` (gateway: each API key, and the tenant over all its keys) or `"per-account";q=<limit>;w=<seconds>` (portal). Every response past authentication carries it.',
    schema: { type: 'string' },
  },
} as const;

/**
 * The error statuses an operation answers because of what it takes, whatever its handler does:
 * credentials (401, and 429 past the caller's rate limit), path ids (404, 422), query filters (422), a body (413 on any write; 400, 415
 * and 422 for a JSON body) and, on gateway writes, the idempotency key (400, 409, 422).
 */
export function impliedStatuses(method: string, operation: Operation): Implied[] {
  const schemes = new Set((operation.security ?? []).flatMap((requirement) => Object.keys(requirement)));
  const locations = new Set((operation.parameters ?? []).flatMap((parameter) => ('in' in parameter ? [parameter.in] : [])));
  const write = WRITES.has(method);
  const jsonBody = operation.requestBody !== undefined && 'content' in operation.requestBody && 'application/json' in operation.requestBody.content;
  const implied: Implied[] = [];
  if (schemes.size > 0) implied.push({ status: 401, because: 'UNAUTHENTICATED or AUTH_INVALID_CREDENTIALS when the credentials are missing or wrong' });
  if (schemes.size > 0) {
    const because = 'RATE_LIMITED when the caller (on the gateway the API key or its tenant over all its keys, on the portal the account) is over its rate limit';
    implied.push({ status: 429, because, headers: RATE_LIMITED_HEADERS });
  }
  if (locations.has('path')) implied.push({ status: 404, because: 'NOT_FOUND when an id in the path does not exist in this tenant (or the tenant is not yours)' });
  if (locations.has('path') || locations.has('query')) implied.push({ status: 422, because: 'VALIDATION_FAILED for a path or query parameter outside its schema' });
  // A file upload (a CSV body) states its own limit and media type.
  const fileBody = operation.requestBody !== undefined && 'content' in operation.requestBody && 'text/csv' in operation.requestBody.content;
  if (write && !fileBody) implied.push({ status: 413, because: 'PAYLOAD_TOO_LARGE for a body over 64 KiB' });
  if (jsonBody) {
    implied.push({ status: 400, because: 'MALFORMED_REQUEST when the body is not valid JSON' });
    implied.push({ status: 415, because: 'UNSUPPORTED_MEDIA_TYPE when a body is sent without Content-Type: application/json' });
    implied.push({ status: 422, because: 'VALIDATION_FAILED for a body outside its schema, one entry per field' });
  }
  if (write && schemes.has('gatewaySignature')) {
    implied.push({ status: 400, because: 'IDEMPOTENCY_KEY_REQUIRED when X-Idempotency-Key is missing or does not match its pattern' });
    implied.push({ status: 409, because: 'IDEMPOTENCY_KEY_IN_USE while a request with the same key is in flight' });
    implied.push({ status: 422, because: 'IDEMPOTENCY_KEY_REUSED when the key was used for another route or body' });
  }
  return implied;
}

/** Adds an implied status to an operation's responses: its reason appended to a documented one, else an error envelope of its own. */
function addImplied(responses: NonNullable<Operation['responses']>, { status, because, headers }: Implied): void {
  const documented = responses[status];
  responses[status] =
    documented && 'description' in documented
      ? { ...documented, description: `${documented.description}; ${because}`, ...(headers && { headers: { ...documented.headers, ...headers } }) }
      : {
          description: `${errorResponse(status).description}; ${because}`,
          ...(headers && { headers }),
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE}` } } },
        };
}

/**
 * The served document: what the routes declare plus the statuses implied by what each operation
 * takes, so no route can forget one. Descriptions name the error codes behind each implied status.
 */
export function withImpliedStatuses(document: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = (operation.responses ??= {});
      for (const implied of impliedStatuses(method, operation)) addImplied(responses, implied);
    }
  }
  return document;
}

/** The component every response's `X-Request-Id` refers to (src/middleware/init.ts, `identifyRequest`). */
const REQUEST_ID_HEADER = 'RequestId';

/**
 * Every response of every operation, success or failure, documents `X-Request-Id`: the runtime
 * sets it on every answer, and a failure's `error.request_id` is the same id, except in an
 * idempotent replay, whose body is the first answer's.
 */
export function withRequestIdHeader(document: OpenApiDocument): OpenApiDocument {
  const components = (document.components ??= {});
  components.headers = {
    ...components.headers,
    [REQUEST_ID_HEADER]: {
      description:
        `This request's id: the caller's own \`X-Request-Id\` when it sent one matching \`${SAFE_REQUEST_ID.source}\`, else a new \`req_...\`. ` +
        "A failure's `error.request_id` is the same id: quote it when you report the error. " +
        "An idempotent replay (`Idempotent-Replayed: true`) answers the first request's body byte for byte, its `error.request_id` included, while this header names the replay.",
      schema: { type: 'string' },
    },
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      for (const response of Object.values(item[method]?.responses ?? {})) {
        if ('description' in response) response.headers = { ...response.headers, 'X-Request-Id': { $ref: `#/components/headers/${REQUEST_ID_HEADER}` } };
      }
    }
  }
  return document;
}

/** The component of a tenant's answers' `X-D1-Bookmark` (src/middleware/bookmark.ts). */
const BOOKMARK_HEADER = 'D1Bookmark';
/** The paths of a tenant's data: the gateway's and the portal's under /tenant/{tenantId}. */
const NO_SESSION = new Set(['401', '429']);
const isTenantPath = (path: string) => path.startsWith('/gateway/') || path.startsWith('/tenant/{tenantId}');

/**
 * Every answer of a tenant's operation that reached its database documents `X-D1-Bookmark`, and a
 * malformed one sent back is a 400 (docs/INTEGRATION.md, "Reading your own writes").
 */
export function withBookmarks(document: OpenApiDocument): OpenApiDocument {
  const components = (document.components ??= {});
  components.headers = {
    ...components.headers,
    [BOOKMARK_HEADER]: {
      description:
        "Where this request left the tenant's database (a D1 bookmark). Send the last one you received as the `X-D1-Bookmark` request header of your next requests: a read then sees at least your own writes, wherever it is served. " +
        'Without it a portal read is served by the nearest copy of the database, which may not show a write made a moment ago; the gateway serves every request from the primary.',
      schema: { type: 'string', pattern: BOOKMARK_FORMAT.source },
    },
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!isTenantPath(path)) continue;
    for (const method of METHODS) {
      const responses = item[method]?.responses;
      if (!responses) continue;
      addImplied(responses, { status: 400, because: 'BAD_REQUEST when X-D1-Bookmark is not a bookmark this API sent' });
      // Refused before the database (credentials, rate limit): no session, no bookmark.
      for (const [status, response] of Object.entries(responses)) {
        if ('description' in response && !NO_SESSION.has(status)) response.headers = { ...response.headers, 'X-D1-Bookmark': { $ref: `#/components/headers/${BOOKMARK_HEADER}` } };
      }
    }
  }
  return document;
}
