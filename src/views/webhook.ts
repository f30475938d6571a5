import type { WebhookDelivery, WebhookEndpoint } from '../db/schema';
import type { WebhookDeliveryView, WebhookEndpointView } from '../schemas/webhook';

/** The portal record of an endpoint: never a secret. */
export function toWebhookEndpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    failing_since: endpoint.failingSince,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

export function toWebhookDeliveryView(delivery: WebhookDelivery): WebhookDeliveryView {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
    delivered_at: delivery.deliveredAt,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
  };
}
