import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { webhookEndpointSchema } from '../../schemas/webhook';
import { getWebhookEndpoint } from '../../services/webhook-endpoints';
import { webhookEndpointParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/webhook-endpoints/{id}',
  operationId: 'getWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Get a webhook endpoint',
  description: '`disabled_reason` says why the platform disabled it (three days of failed deliveries). Admin and up.',
  security: portalSecurity,
  request: { params: webhookEndpointParams },
  responses: {
    200: okResponse(webhookEndpointSchema, 'The endpoint'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerWebhookEndpointsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    const data = await getWebhookEndpoint(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data }, 200);
  });
}
