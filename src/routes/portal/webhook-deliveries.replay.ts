import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { webhookDeliverySchema } from '../../schemas/webhook';
import { replayWebhookDelivery } from '../../services/webhook-deliveries';
import { webhookDeliveryParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/webhook-endpoints/{id}/deliveries/{deliveryId}/replay',
  operationId: 'replayWebhookDelivery',
  tags: ['Webhooks'],
  summary: 'Send a delivery again now',
  description:
    'The same event (same `webhook-id` and body), delivered or not, is sent again at once and signed afresh. A disabled endpoint refuses replays (409): enable it first. Admin and up.',
  security: portalSecurity,
  request: { params: webhookDeliveryParams },
  responses: {
    200: okResponse(webhookDeliverySchema, 'The delivery, pending again'),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerWebhookDeliveriesReplay(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    const { id, deliveryId } = c.req.valid('param');
    const data = await replayWebhookDelivery(c.get('services'), { endpointId: id, deliveryId }, c.env.WEBHOOK_QUEUE);
    return c.json({ success: true as const, data }, 200);
  });
}
