import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { apiKeySchema, listApiKeysQuerySchema } from '../../schemas/api-key';
import { listApiKeys } from '../../services/api-keys';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/api-keys',
  operationId: 'listApiKeys',
  tags: ['API keys'],
  summary: 'List the API keys of the tenant (newest first; never their secrets)',
  description: '`status` filters by the status as of now: a key past `expires_at` is `expired`.',
  security: portalSecurity,
  request: { params: tenantParams, query: pageQuery.extend(listApiKeysQuerySchema.shape) },
  responses: {
    200: okResponse(pageSchema(apiKeySchema), 'A page of API key records'),
    ...errorResponses(401, 403, 404, 422),
  },
});

export function registerApiKeysList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_api_keys');
    const data = await listApiKeys(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
