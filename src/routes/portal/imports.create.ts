import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { MAX_IMPORT_BYTES } from '../../domain/imports';
import { ApiError } from '../../lib/errors';
import { importJobSchema, importKindQuery } from '../../schemas/import';
import { createImport } from '../../services/imports';
import { errorResponse, errorResponses, okResponse } from '../openapi';
import { tenantParams } from './params';
import { portalSecurity } from './security';

/** The path `limitBody` leaves to this route, which enforces its own 50 MiB limit (src/app.ts). */
export const IMPORT_UPLOAD_PATH = /^\/api\/v1\/tenant\/[^/]+\/imports$/;

const CSV_MEDIA_TYPE = /^text\/csv\s*(;\s*charset="?utf-8"?\s*)?$/i;

/**
 * Before the query is validated: the permission (403), the media type (415) and a declared length
 * over the limit (413), so a refused upload is answered without reading any of it.
 */
const acceptUpload = createMiddleware<PortalEnv>(async function acceptUpload(c, next) {
  assertCan(c.get('portalAuth').role, 'run_imports_exports');
  if (!CSV_MEDIA_TYPE.test(c.req.header('content-type') ?? '')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as Content-Type: text/csv (UTF-8)', { path: 'content-type' });
  if (Number(c.req.header('content-length') ?? 0) > MAX_IMPORT_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `The file exceeds ${MAX_IMPORT_BYTES} bytes (50 MiB)`);
  await next();
});

const route = createRoute({
  method: 'post',
  path: '/imports',
  operationId: 'createImport',
  tags: ['Imports'],
  summary: 'Import customers or opening balances from a CSV file',
  description: [
    'The body is the file itself (`Content-Type: text/csv`, UTF-8, a header row, up to 50 MiB; RFC 4180 quoting, CRLF or LF, a BOM or none).',
    'customers: `external_id` (required), `email`, `username`, `country_code`, `status`, and `attr.<key>` per defined attribute; each row upserts by `external_id` like `POST /gateway/customers` (a blank cell changes nothing).',
    'balances: `external_id`, `amount` (required), `notes`, `expires_at` (ISO 8601); each row is an `xp_bonus` credit with `metadata.import_id` (the lot expires at `expires_at` when given).',
    'The header is checked at once (422, one error per column at fault, path `header.<column>`); the rows are applied in the background through a queue, each exactly once, and a row that fails is reported in `errors` without stopping the others.',
    '202 with the new job; the same file (SHA-256) and kind again answers 200 with the first job, also when both are sent at once. Admin and up.',
  ].join(' '),
  security: portalSecurity,
  middleware: [acceptUpload] as const,
  request: {
    params: tenantParams,
    query: importKindQuery,
    body: {
      required: true,
      description: 'The CSV file',
      content: { 'text/csv': { schema: z.string().openapi({ format: 'binary', example: 'external_id,email,attr.favorite_drink\r\nmember-1,jane@example.com,flat white\r\n' }) } },
    },
  },
  responses: {
    200: okResponse(importJobSchema, 'The job of the same file and kind, made before'),
    202: okResponse(importJobSchema, 'The new job, queued'),
    ...errorResponses(403, 404, 422),
    413: { ...errorResponse(413), description: 'PAYLOAD_TOO_LARGE: the file exceeds 50 MiB (whether or not Content-Length says so)' },
    415: { ...errorResponse(415), description: 'UNSUPPORTED_MEDIA_TYPE: the body is not sent as text/csv' },
  },
});

export function registerImportsCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.raw.body;
    if (!body) throw new ApiError('VALIDATION_FAILED', 'The file is empty: a header row is required', { path: 'header' });
    const { kind } = c.req.valid('query');
    const { job, created } = await createImport(c.get('services'), { kind, body, accountId: c.get('portalAuth').account.id }, c.env.FILES, c.env.OPERATIONS_QUEUE);
    return created ? c.json({ success: true as const, data: job }, 202) : c.json({ success: true as const, data: job }, 200);
  });
}
