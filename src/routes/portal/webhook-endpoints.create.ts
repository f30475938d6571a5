import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { createWebhookEndpointBodySchema, webhookEndpointWithSecretSchema } from '../../schemas/webhook';
import { createWebhookEndpoint, webhookSettings } from '../../services/webhook-endpoints';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/webhook-endpoints',
  operationId: 'createWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Create a webhook endpoint',
  description:
    'The endpoint is enabled at once and receives the listed events, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Answers `secret` (`whsec_...`) this once. The URL must be https on the public internet (no loopback, private, link-local or other special-purpose address, no local or internal name); redirects are not followed. It is stored as URL parsing serialises it, without the fragment. At most 20 endpoints per tenant, and no two enabled ones with the same URL (409). Admin and up.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createWebhookEndpointBodySchema) },
  responses: {
    201: okResponse(webhookEndpointWithSecretSchema, 'The new endpoint with its signing secret'),
    ...errorResponses(401, 403, 404, 409, 413, 415, 422),
  },
});

export function registerWebhookEndpointsCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_webhooks');
    const data = await createWebhookEndpoint(c.get('services'), c.req.valid('json'), webhookSettings(c.get('config')));
    return c.json({ success: true as const, data }, 201);
  });
}
