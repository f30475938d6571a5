import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import type { Config } from '../../config';
import { fileParams, fileQuery } from '../../schemas/export';
import { requestContext } from '../../middleware/services';
import { openExportFile, type LinkSettings } from '../../services/exports';
import { errorResponses } from '../openapi';

const FILES_PATH = '/files/exports';

/** How the tenant routes (`/api/v1/tenant/...`) issue links to this route: the signing key and this route's absolute URL, on the request's own origin. */
export function downloadLinkSettings(c: { req: { url: string }; get: (key: 'config') => Config }): LinkSettings {
  const filesUrl = new URL(c.req.url);
  filesUrl.pathname = `${filesUrl.pathname.slice(0, filesUrl.pathname.indexOf('/tenant/'))}${FILES_PATH}/`;
  filesUrl.search = '';
  return { encryptionKey: c.get('config').API_KEY_ENCRYPTION_KEY, filesUrl: filesUrl.href };
}

const route = createRoute({
  method: 'get',
  path: `${FILES_PATH}/{exportId}`,
  operationId: 'downloadFile',
  tags: ['Exports'],
  summary: 'Download an export file through its signed link (no token)',
  description:
    'The `download_url` of a completed export: the link itself is the credential (a presigned URL: `expires` and an HMAC `signature`, valid one hour from when the job was read), so a browser downloads it without a bearer token. Answers the CSV as an attachment, streamed. A link that is altered, expired, or names a file since deleted (7 days after completion) is a 404.',
  request: { params: fileParams, query: fileQuery },
  responses: {
    200: {
      description: 'The CSV file (UTF-8, header row; RFC 4180 quoting)',
      headers: z.object({ 'content-disposition': z.string().openapi({ example: 'attachment; filename="customers-exp_3k9w2m.csv"' }) }),
      content: { 'text/csv': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses(404),
  },
});

export function registerFilesGet(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const ctx = requestContext(c);
    const { exportId } = c.req.valid('param');
    const file = await openExportFile(ctx, { exportId, ...c.req.valid('query') }, c.get('config').API_KEY_ENCRYPTION_KEY, c.env.FILES);
    return c.body(file.body, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-length': String(file.size),
      'content-disposition': `attachment; filename="${file.fileName}"`,
      'cache-control': 'private, no-store',
    });
  });
}
