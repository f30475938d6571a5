import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, okResponse } from '../openapi';
import { deleteWebhookEndpoint } from '../../services/webhook-endpoints';
import { webhookEndpointParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/webhook-endpoints/{id}',
  operationId: 'deleteWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint and its delivery log',
  description: 'Nothing more is sent to it, pending attempts included. Admin and up.',
  security: portalSecurity,
  request: { params: webhookEndpointParams },
  responses: {
    200: okResponse(successFlagSchema, 'The endpoint was deleted'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerWebhookEndpointsDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    await deleteWebhookEndpoint(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data: { success: true as const } }, 200);
  });
}
