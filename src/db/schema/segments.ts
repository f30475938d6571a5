import { sql } from 'drizzle-orm';
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

/**
 * A cohort compiled for the SQL evaluator (view `cohort_matches`, src/db/sql/cohort-evaluation.sql): its operator,
 * and what the triggers of that migration keep current in the same transaction as every write that
 * can change them. A narrow row, so that a count change never rewrites the cohort's rules. A cohort
 * without one (saved before migration 0003) is compiled on its first read.
 */
export const compiledCohorts = sqliteTable(
  'compiled_cohorts',
  {
    tenantId: tenantId(),
    cohortId: text('cohort_id').notNull(),
    operator: text('operator', { enum: ['and', 'or'] }).notNull(),
    memberCount: integer('member_count').notNull().default(0),
    /** Attribute keys named by the rules that are not defined, in order of first mention. */
    deadKeys: text('dead_keys', { mode: 'json' }).$type<string[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.cohortId] })],
);

export const predicateStorages = ['text', 'number', 'list'] as const;
export type PredicateStorage = (typeof predicateStorages)[number];
/** A predicate's operand as the SQL evaluator compares it: against `value_text` or `value_number`. */
export type PredicateOperand = { storage: PredicateStorage; text: string | null; number: number | null; list: (string | number)[] | null };

/**
 * A cohort's rules compiled for the SQL evaluator (view `cohort_matches`, src/db/sql/cohort-evaluation.sql), one row
 * per predicate. An attribute predicate keeps its operand under every attribute type it fits
 * (`forms`), and the columns `definition_id`, `storage` and `operand_*` hold the form of the key's
 * current definition (kept current by triggers on attribute_definitions; no definition or no
 * fitting form: `definition_id` null, the predicate never matches).
 */
export const cohortPredicates = sqliteTable(
  'cohort_predicates',
  {
    tenantId: tenantId(),
    cohortId: text('cohort_id').notNull(),
    position: integer('position').notNull(),
    subject: text('subject').notNull(),
    attributeKey: text('attribute_key').notNull().default(''),
    op: text('op').notNull(),
    forms: text('forms', { mode: 'json' }).$type<Partial<Record<AttributeType, PredicateOperand>>>(),
    definitionId: text('definition_id'),
    storage: text('storage', { enum: predicateStorages }),
    operandText: text('operand_text'),
    operandNumber: real('operand_number'),
    operandList: text('operand_list'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.cohortId, t.position] }),
    index('cohort_predicates_subject').on(t.tenantId, t.subject, t.attributeKey),
    index('cohort_predicates_definition').on(t.tenantId, t.definitionId),
  ],
);

/** The customers a cohort matches now (maintained by src/db/sql/cohort-membership.sql); newest first by the second index. */
export const cohortMemberships = sqliteTable(
  'cohort_memberships',
  {
    tenantId: tenantId(),
    cohortId: text('cohort_id').notNull(),
    customerId: text('customer_id').notNull(),
    customerCreatedAt: text('customer_created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.cohortId, t.customerId] }),
    index('cohort_memberships_newest').on(t.tenantId, t.cohortId, t.customerCreatedAt, t.customerId),
    index('cohort_memberships_customer').on(t.tenantId, t.customerId),
  ],
);

export const refreshCandidates = ['everyone', 'members', 'none'] as const;

/**
 * Requests to re-evaluate one cohort, empty at rest: inserting a row runs the refresh (a trigger of
 * src/db/sql/cohort-recomputes.sql) and removes it. A write's request (no positions) brings the predicates' forms and
 * `dead_keys` up to date and records a `cohort_recomputes` job; a chunk of that job (`from_seq` to
 * `to_seq`, customer list positions) re-evaluates those customers. The customers concerned are
 * `candidates`: `everyone`, `members` (a change that can only remove), or `none`; with a lifetime XP
 * band (a tier ladder change), only those in [from, below).
 */
export const cohortRefreshes = sqliteTable('cohort_refreshes', {
  tenantId: tenantId(),
  cohortId: text('cohort_id').notNull(),
  candidates: text('candidates', { enum: refreshCandidates }).notNull().default('everyone'),
  fromLifetimeXp: integer('from_lifetime_xp'),
  belowLifetimeXp: integer('below_lifetime_xp'),
  fromSeq: integer('from_seq'),
  toSeq: integer('to_seq'),
});

/**
 * A cohort's re-evaluation over many customers, applied in bounded chunks (services/cohort-recomputes.ts)
 * so no transaction holds the database for long: customers at list positions `next_seq` to
 * `until_seq` are still to do (later ones were evaluated when inserted). Another change to the same
 * cohort merges into the job and starts it over. Gone once done.
 */
export const cohortRecomputes = sqliteTable(
  'cohort_recomputes',
  {
    tenantId: tenantId(),
    cohortId: text('cohort_id').notNull(),
    candidates: text('candidates', { enum: ['everyone', 'members'] }).notNull(),
    fromLifetimeXp: integer('from_lifetime_xp'),
    belowLifetimeXp: integer('below_lifetime_xp'),
    nextSeq: integer('next_seq').notNull().default(1),
    untilSeq: integer('until_seq').notNull(),
    requestedAt: text('requested_at')
      .notNull()
      .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.cohortId] }), index('cohort_recomputes_requested').on(t.requestedAt)],
);

/** Requests to re-evaluate one customer for the cohorts listed (JSON array of ids); empty at rest, like cohort_refreshes. */
export const customerRefreshes = sqliteTable('customer_refreshes', {
  tenantId: tenantId(),
  customerId: text('customer_id').notNull(),
  cohortIds: text('cohort_ids').notNull(),
});

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
export type CohortPredicateRow = typeof cohortPredicates.$inferInsert;
export type CohortRecompute = typeof cohortRecomputes.$inferSelect;
export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;
export type GatewaySignatureUse = typeof gatewaySignatureUses.$inferSelect;
