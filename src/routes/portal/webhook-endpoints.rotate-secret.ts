import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { webhookEndpointWithSecretSchema } from '../../schemas/webhook';
import { rotateWebhookSecret, webhookSettings } from '../../services/webhook-endpoints';
import { webhookEndpointParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/webhook-endpoints/{id}/rotate-secret',
  operationId: 'rotateWebhookEndpointSecret',
  tags: ['Webhooks'],
  summary: 'Rotate the signing secret of a webhook endpoint',
  description:
    'Answers the new `secret` this once. Two rotations at once: one wins, the other is a 409 (nothing changed by it). For 24 hours (`previous_secret_expires_at`) every request carries two signatures in `webhook-signature`, one per secret, so the receiver can switch without missing an event. Admin and up.',
  security: portalSecurity,
  request: { params: webhookEndpointParams },
  responses: {
    200: okResponse(webhookEndpointWithSecretSchema, 'The endpoint with its new signing secret'),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerWebhookEndpointsRotateSecret(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    const data = await rotateWebhookSecret(c.get('services'), c.req.valid('param').id, webhookSettings(c.get('config')));
    return c.json({ success: true as const, data }, 200);
  });
}
