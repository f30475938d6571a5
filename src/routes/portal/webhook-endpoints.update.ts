import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { updateWebhookEndpointBodySchema, webhookEndpointSchema } from '../../schemas/webhook';
import { updateWebhookEndpoint, webhookSettings } from '../../services/webhook-endpoints';
import { webhookEndpointParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'patch',
  path: '/webhook-endpoints/{id}',
  operationId: 'updateWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Update a webhook endpoint (url, description, events, enabled/disabled)',
  description:
    'Partial update: only the fields sent change. Setting `status` clears `disabled_reason` and the failure streak; deliveries given up while disabled are sent again by replaying them. The endpoint may not become enabled with the URL of another enabled endpoint (409 at `url`). Admin and up.',
  security: portalSecurity,
  request: { params: webhookEndpointParams, body: jsonBody(updateWebhookEndpointBodySchema) },
  responses: {
    200: okResponse(webhookEndpointSchema, 'The updated endpoint'),
    ...errorResponses(401, 403, 404, 409, 413, 415, 422),
  },
});

export function registerWebhookEndpointsUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    const data = await updateWebhookEndpoint(c.get('services'), c.req.valid('param').id, c.req.valid('json'), webhookSettings(c.get('config')));
    return c.json({ success: true as const, data }, 200);
  });
}
