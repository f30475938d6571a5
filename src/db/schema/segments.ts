import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

export const attributeTypes = ['string', 'number', 'boolean', 'date', 'datetime', 'string_list'] as const;

export const attributeDefinitions = sqliteTable(
  'attribute_definitions',
  {
    id: id(),
    tenantId: tenantId(),
    key: text('key').notNull(),
    type: text('type', { enum: attributeTypes }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('attribute_definitions_tenant_key').on(t.tenantId, t.key)],
);

/**
 * One typed value per customer and definition, stored so SQL compares it by type:
 * numbers (and booleans as 0/1) in `value_number`; strings, ISO dates/datetimes (which sort
 * lexically) and string lists (JSON array) in `value_text`.
 */
export const customerAttributeValues = sqliteTable(
  'customer_attribute_values',
  {
    tenantId: tenantId(),
    userId: text('user_id').notNull(),
    definitionId: text('definition_id').notNull(),
    valueText: text('value_text'),
    valueNumber: real('value_number'),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.definitionId] }),
    index('customer_attribute_values_definition').on(t.tenantId, t.definitionId),
  ],
);

export const cohorts = sqliteTable(
  'cohorts',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    rules: text('rules', { mode: 'json' }).notNull(),
    createdBy: text('created_by').notNull(),
    ...timestamps,
  },
  (t) => [index('cohorts_tenant_created').on(t.tenantId, t.createdAt)],
);

/** Stored outcome of a gateway write, replayed for 24 h (IETF Idempotency-Key draft). */
export const idempotencyRecords = sqliteTable(
  'idempotency_records',
  {
    tenantId: tenantId(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is in flight. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamps.createdAt,
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.key] }),
    index('idempotency_records_expires').on(t.expiresAt),
  ],
);

/**
 * Each signature of a gateway write is accepted once (with its own idempotency key, whose replay
 * stays allowed). Kept while the signature's timestamp is inside the tolerance window.
 */
export const gatewaySignatureUses = sqliteTable(
  'gateway_signature_uses',
  {
    tenantId: tenantId(),
    signature: text('signature').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamps.createdAt,
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.signature] }), index('gateway_signature_uses_expires').on(t.expiresAt)],
);

export type AttributeDefinition = typeof attributeDefinitions.$inferSelect;
export type AttributeType = (typeof attributeTypes)[number];
export type CustomerAttributeValue = typeof customerAttributeValues.$inferSelect;
export type Cohort = typeof cohorts.$inferSelect;
export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;
export type GatewaySignatureUse = typeof gatewaySignatureUses.$inferSelect;
