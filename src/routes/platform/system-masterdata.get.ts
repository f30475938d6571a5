import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { masterdataSchema } from '../../schemas/masterdata';
import { getMasterdata } from '../../services/masterdata';

/** Changes only with a deploy, so browsers and CDNs may keep it for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';

const route = createRoute({
  method: 'get',
  path: '/system/masterdata',
  operationId: 'getMasterdata',
  tags: ['Platform'],
  summary: 'Reference data: ISO 3166-1 countries and the API enumerations (no token)',
  responses: { 200: okResponse(masterdataSchema, 'Reference data'), ...errorResponses() },
});

export function registerSystemMasterdata(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, (c) => {
    c.header('Cache-Control', CACHE_CONTROL);
    return c.json({ success: true as const, data: getMasterdata() }, 200);
  });
}
