import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { attributeDefinitionSchema } from '../../schemas/attribute';
import { listAttributeDefinitions } from '../../services/attributes';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/attributes',
  operationId: 'listAttributes',
  tags: ['Attributes'],
  summary: 'List the customer attribute definitions (newest first)',
  security: portalSecurity,
  request: { params: tenantParams, query: pageQuery },
  responses: {
    200: okResponse(pageSchema(attributeDefinitionSchema), 'A page of attribute definitions'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerAttributesList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listAttributeDefinitions(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
