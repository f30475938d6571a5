import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { webhookEndpointSchema } from '../../schemas/webhook';
import { listWebhookEndpoints } from '../../services/webhook-endpoints';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/webhook-endpoints',
  operationId: 'listWebhookEndpoints',
  tags: ['Webhooks'],
  summary: 'List the webhook endpoints of the tenant (newest first; never their secrets)',
  description: 'Admin and up.',
  security: portalSecurity,
  request: { params: tenantParams, query: pageQuery },
  responses: {
    200: okResponse(pageSchema(webhookEndpointSchema), 'A page of webhook endpoints'),
    ...errorResponses(401, 403, 404, 422),
  },
});

export function registerWebhookEndpointsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    const data = await listWebhookEndpoints(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
