import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { listWebhookDeliveriesQuerySchema, webhookDeliverySchema } from '../../schemas/webhook';
import { listWebhookDeliveries } from '../../services/webhook-deliveries';
import { webhookEndpointParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/webhook-endpoints/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: 'The delivery log of a webhook endpoint (newest first)',
  description:
    'One row per event sent to the endpoint: attempts so far, the last status code and error, the next attempt while `pending`, `delivered_at` once a 2xx came back. Failed attempts are retried with exponential backoff for 27.5 hours (8 attempts), then the delivery is `failed`. Admin and up.',
  security: portalSecurity,
  request: { params: webhookEndpointParams, query: pageQuery.extend(listWebhookDeliveriesQuerySchema.shape) },
  responses: {
    200: okResponse(pageSchema(webhookDeliverySchema), 'A page of deliveries'),
    ...errorResponses(401, 403, 404, 422),
  },
});

export function registerWebhookDeliveriesList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    const data = await listWebhookDeliveries(c.get('services'), c.req.valid('param').id, c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
