import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { webhookEventSchema } from '../../schemas/webhook-event';

const webhookHeaders = z.object({
  'webhook-id': z.string().openapi({ example: 'evt_0f3c2a9b8d7e6f5a4b3c2d1e0f9a8b7c' }),
  'webhook-timestamp': z.string().openapi({ example: '1795500000' }),
  'webhook-signature': z.string().openapi({ example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }),
});

/**
 * The events the platform POSTs to a tenant's webhook endpoints, as the document's `webhooks`
 * (OpenAPI 3.1): receivers and the SDK get their bodies typed from the same schema that checks them.
 */
export function registerWebhookEvents(api: OpenAPIHono<AppEnv>) {
  api.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'loyaltyEvent',
    operationId: 'receiveLoyaltyEvent',
    tags: ['Webhooks'],
    summary: 'An event, POSTed to each subscribed endpoint',
    description:
      'Signed per Standard Webhooks: `webhook-id` (the event id, the same on every retry and replay: drop duplicates by it), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the endpoint secret; two, space-separated, for 24 hours after a rotation). Answer any 2xx within 10 seconds; anything else is retried with backoff for 27.5 hours. Redirects are not followed.',
    request: {
      headers: webhookHeaders,
      body: { required: true, content: { 'application/json': { schema: webhookEventSchema } } },
    },
    responses: { 200: { description: 'Any 2xx acknowledges the event' } },
  });
}

