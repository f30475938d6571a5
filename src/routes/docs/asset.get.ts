import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { docsFileNames } from './files';

/**
 * GET /docs/{file}: one of the reference's files, from the static assets, which hold them at this
 * very path (scripts/lib/docs-assets.ts). The request's headers go along, so a browser's
 * If-None-Match gets a 304. Any other name is our 404, not whatever else the assets hold.
 */
export function registerDocsAsset(app: OpenAPIHono<AppEnv>) {
  app.get('/docs/:file', async (c) => {
    const file = c.req.param('file');
    if (!docsFileNames.includes(file)) throw new ApiError('NOT_FOUND', `No file ${file} in the API reference`);
    if (!c.env.ASSETS) throw new ApiError('SERVICE_MISCONFIGURED', 'ASSETS is not bound (the [assets] binding in wrangler.toml)');
    const served = await c.env.ASSETS.fetch(new URL(c.req.path, c.req.url), { headers: c.req.raw.headers });
    if (served.status === 404) throw new ApiError('SERVICE_MISCONFIGURED', `${file} is missing from the static assets (npm run docs:assets)`);
    // A fetched response's headers are immutable; the app's middleware adds its own.
    return new Response(served.body, served);
  });
}
