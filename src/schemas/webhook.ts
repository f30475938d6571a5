import { z } from '@hono/zod-openapi';
import { webhookDeliveryStatuses, webhookEndpointStatuses, webhookEventTypes } from '../db/schema';
import { dateTime, optionalText } from './common';

const eventTypes = z
  .array(z.enum(webhookEventTypes))
  .min(1)
  .max(webhookEventTypes.length)
  .refine((types) => new Set(types).size === types.length, 'Must not repeat an event type')
  .openapi({ uniqueItems: true, description: 'The events this endpoint receives, each at most once', example: ['customer.tier_changed', 'redemption.completed'] });

const url = z
  .string()
  .max(2048)
  .openapi({ format: 'uri', description: 'An https URL on the public internet; redirects are not followed. Stored as URL parsing serialises it (lowercase scheme and host, no default port), without the fragment', example: 'https://example.com/webhooks/loyalty' });

const description = optionalText(500, 'one').trim().openapi({ example: 'Order service' });

const endpointFields = {
  id: z.string(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.enum(webhookEventTypes)),
  status: z.enum(webhookEndpointStatuses),
  disabled_reason: z.string().nullable().openapi({ description: 'Why the platform disabled the endpoint (null when enabled or disabled by a person)' }),
  failing_since: dateTime.nullable().openapi({ description: 'First failed attempt since the last success; three days of failures disable the endpoint' }),
  previous_secret_expires_at: dateTime.nullable().openapi({ description: 'After a rotation, until when the previous secret also signs' }),
  created_at: dateTime,
  updated_at: dateTime,
};

export const webhookEndpointSchema = z.strictObject(endpointFields).openapi('WebhookEndpoint');

/** Create and rotate answer the signing secret once; no read returns it again. */
export const webhookEndpointWithSecretSchema = z
  .strictObject({
    ...endpointFields,
    secret: z.string().openapi({ description: 'The signing secret (Standard Webhooks, `whsec_` + base64); store it now, it is never returned again', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
  })
  .openapi('WebhookEndpointWithSecret');

export const createWebhookEndpointBodySchema = z
  .strictObject({ url, description: description.optional(), event_types: eventTypes })
  .openapi('CreateWebhookEndpointBody');

export const updateWebhookEndpointBodySchema = z
  .strictObject({
    url: url.optional(),
    description: description.optional(),
    event_types: eventTypes.optional(),
    status: z.enum(webhookEndpointStatuses).optional().openapi({ description: 'Enabling again clears `disabled_reason` and `failing_since`' }),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field')
  .openapi('UpdateWebhookEndpointBody', { minProperties: 1 });

export const webhookDeliverySchema = z
  .strictObject({
    id: z.string(),
    endpoint_id: z.string(),
    event_id: z.string().openapi({ description: 'Sent as `webhook-id`: the same for every attempt and replay, so receivers can drop duplicates' }),
    event_type: z.enum(webhookEventTypes),
    status: z.enum(webhookDeliveryStatuses),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: dateTime.nullable(),
    delivered_at: dateTime.nullable(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .openapi('WebhookDelivery');

export const listWebhookDeliveriesQuerySchema = z.object({ status: z.enum(webhookDeliveryStatuses).optional() });

export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;
export type CreateWebhookEndpointBody = z.infer<typeof createWebhookEndpointBodySchema>;
export type UpdateWebhookEndpointBody = z.infer<typeof updateWebhookEndpointBodySchema>;
