import type { OpenAPIHono } from '@hono/zod-openapi';
import { configOf } from '../../config';
import type { AppEnv } from '../../app-env';
import { cmsHeaders, IMMUTABLE, isImmutableAsset, providerOrigin } from './headers';

/** The API's own paths (and /api itself): never the CMS, even where no route matches. */
const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * GET (and HEAD) of any path outside /api/: the CMS (web/, built into the static assets by
 * wrangler's [build]) with its security headers (./headers.ts). wrangler.toml runs the Worker first
 * for every request (`run_worker_first = true`) so that no CMS page or file leaves without them:
 * the asset server still picks the file, or index.html for a path none matches
 * (`not_found_handling = "single-page-application"`). connect-src names this environment's OpenID
 * provider, read from the validated configuration; a broken one names none (the CMS then shows the
 * API's 503 from cms-config). No file and no index.html (the CMS not built, as in the Worker tests,
 * or ASSETS unbound): the API's 404, which says where the API is.
 */
export function registerCms(app: OpenAPIHono<AppEnv>) {
  app.get('*', async function serveCms(c, next) {
    if (isApiPath(c.req.path)) return next();
    const served = await c.env.ASSETS?.fetch(c.req.raw);
    let response: Response;
    if (served && served.status !== 404) {
      // A fetched response's headers are immutable.
      response = new Response(served.body, served);
    } else {
      await next();
      response = c.res;
    }
    const config = configOf(c.env);
    const provider = providerOrigin(config.ok ? config.config.CMS_OIDC_ISSUER : undefined);
    for (const [name, value] of Object.entries(cmsHeaders(provider, c.req.path))) response.headers.set(name, value);
    if (isImmutableAsset(c.req.path, response)) response.headers.set('Cache-Control', IMMUTABLE);
    return response;
  });
}
