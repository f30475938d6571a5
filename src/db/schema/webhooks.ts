import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

/** What a tenant can subscribe to; the triggers of src/db/sql/webhook-outbox.sql record each of them. */
export const webhookEventTypes = [
  'customer.created',
  'customer.status_changed',
  'customer.tier_changed',
  'customer.erased',
  'xp.transaction.completed',
  'xp.transaction.failed',
  'xp.expiring',
  'xp.expired',
  'redemption.completed',
  'redemption.failed',
  'redemption.canceled',
  'onchain.transaction.succeeded',
  'onchain.transaction.failed',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookEndpointStatuses = ['enabled', 'disabled'] as const;

/**
 * A tenant's receiver of events. Secrets are AES-GCM ciphertexts (like API key secrets): signing
 * needs the secret itself. After a rotation the previous secret signs too until it expires.
 */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: id(),
    tenantId: tenantId(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** JSON array of WebhookEventType; the triggers read it with json_each. */
    eventTypes: text('event_types', { mode: 'json' }).$type<WebhookEventType[]>().notNull(),
    status: text('status', { enum: webhookEndpointStatuses }).notNull().default('enabled'),
    secretCiphertext: text('secret_ciphertext').notNull(),
    previousSecretCiphertext: text('previous_secret_ciphertext'),
    previousSecretExpiresAt: text('previous_secret_expires_at'),
    /** First failure since the last success; three days of failures disable the endpoint. */
    failingSince: text('failing_since'),
    disabledReason: text('disabled_reason'),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_tenant_status').on(t.tenantId, t.status), index('webhook_endpoints_tenant_created').on(t.tenantId, t.createdAt)],
);

/**
 * The outbox: one row per change a subscribed endpoint wants, written by triggers in the same
 * transaction as the change. `payload` is the body, rendered once at the first delivery attempt
 * and sent byte for byte by every attempt and replay after it.
 */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: id(),
    tenantId: tenantId(),
    type: text('type', { enum: webhookEventTypes }).notNull(),
    resourceId: text('resource_id').notNull(),
    /** JSON of the changed fields' values before the change (status and tier changes). */
    previousAttributes: text('previous_attributes', { mode: 'json' }),
    /** Why it happened, where the type has reasons (customer.tier_changed: upgrade or review). */
    reason: text('reason'),
    payload: text('payload'),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('webhook_events_tenant_created').on(t.tenantId, t.createdAt), index('webhook_events_tenant_resource').on(t.tenantId, t.resourceId)],
);

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;

/** One event for one endpoint: its attempts so far and when the next one is due. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: id(),
    tenantId: tenantId(),
    endpointId: text('endpoint_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type', { enum: webhookEventTypes }).notNull(),
    status: text('status', { enum: webhookDeliveryStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: text('next_attempt_at'),
    /** Set when handed to the queue; a message lost for 10 minutes is handed over again. */
    enqueuedAt: text('enqueued_at'),
    deliveredAt: text('delivered_at'),
    ...timestamps,
  },
  (t) => [
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_created').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_tenant_status').on(t.tenantId, t.status, t.nextAttemptAt),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookEvent = typeof webhookEvents.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];
