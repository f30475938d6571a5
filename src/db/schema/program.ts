import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id, listPosition, tenantId, timestamps } from './columns';

/**
 * The program engine (CONTRACT.md, Program engine): the tenant's program settings, its earning
 * rules, and the events its backend reports, each with the effects the rules gave it
 * (docs/RULES.md).
 */

export const expiryRoundings = ['none', 'end_of_day', 'end_of_month', 'end_of_year'] as const;
export const tierBases = ['lifetime', 'earned_in_period'] as const;
export const tierDowngrades = ['none', 'one_step', 'recalculate'] as const;
export const tierReviews = ['monthly', 'quarterly', 'yearly'] as const;

/** One row per tenant that saved its settings; a tenant without one has the defaults (domain/program-settings.ts). */
export const programSettings = sqliteTable('program_settings', {
  tenantId: text('tenant_id').primaryKey(),
  /** IANA time zone: the periods of rule limits (and, with the point lifecycle, expiry and reviews) are its days. */
  timezone: text('timezone').notNull().default('UTC'),
  /** ISO 8601 durations, null when off. */
  pointsPendingPeriod: text('points_pending_period'),
  pointsValidity: text('points_validity'),
  pointsExpiryRounding: text('points_expiry_rounding', { enum: expiryRoundings }).notNull().default('none'),
  pointsExpiryNotice: text('points_expiry_notice'),
  tiersBasis: text('tiers_basis', { enum: tierBases }).notNull().default('lifetime'),
  tiersPeriod: text('tiers_period'),
  /** `tiers_period` as SQLite date arithmetic reads it: whole months (years too), then seconds (weeks, days and time). */
  tiersPeriodMonths: integer('tiers_period_months'),
  tiersPeriodSeconds: integer('tiers_period_seconds'),
  tiersDowngrade: text('tiers_downgrade', { enum: tierDowngrades }).notNull().default('none'),
  tiersReview: text('tiers_review', { enum: tierReviews }).notNull().default('yearly'),
  ...timestamps,
});

/**
 * The tenant's review dates on its own calendar (tiers on `earned_in_period`), written ahead when
 * the settings are saved and topped up by the review job: `window_start` is `review_at` minus the
 * period. A tier reached at T is kept until the first review whose window starts at or after T.
 */
export const tierReviewDates = sqliteTable(
  'tier_review_dates',
  {
    tenantId: tenantId(),
    reviewAt: text('review_at').notNull(),
    windowStart: text('window_start').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.reviewAt] }), index('tier_review_dates_window').on(t.tenantId, t.windowStart)],
);

/** Staging of one review chunk (like lot_chunk): the customers due and the tier each keeps; emptied by its batch. */
export const tierReviewChunk = sqliteTable('tier_review_chunk', {
  customerId: text('customer_id').primaryKey(),
  tierId: text('tier_id'),
  validUntil: text('valid_until'),
});

export const earningRuleStatuses = ['active', 'paused', 'archived'] as const;

/**
 * A rule of the tenant's program. `conditions`, `effect`, `multipliers` and `limits` are stored as
 * the API shows them (validated at save time, domain/earning-rules.ts); `total_xp_budget` has a
 * column because the evaluation checks it in SQL against `xp_awarded`. `times_applied` and
 * `xp_awarded` move only with the events that apply the rule, in their own batch.
 */
export const earningRules = sqliteTable(
  'earning_rules',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: earningRuleStatuses }).notNull(),
    priority: integer('priority').notNull().default(0),
    stackable: integer('stackable', { mode: 'boolean' }).notNull().default(true),
    conditions: text('conditions', { mode: 'json' }).notNull(),
    effect: text('effect', { mode: 'json' }).notNull(),
    multipliers: text('multipliers', { mode: 'json' }).notNull(),
    limits: text('limits', { mode: 'json' }).notNull(),
    totalXpBudget: integer('total_xp_budget'),
    startsAt: text('starts_at'),
    endsAt: text('ends_at'),
    timesApplied: integer('times_applied').notNull().default(0),
    xpAwarded: integer('xp_awarded').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('earning_rules_tenant_created').on(t.tenantId, t.createdAt), index('earning_rules_tenant_type').on(t.tenantId, t.eventType, t.status)],
);

/**
 * The version of a tenant's earning rules and the settings their evaluation reads (the time zone),
 * bumped by a trigger on every change (src/db/sql/earning-rules.sql). The per-isolate rule cache
 * (services/rule-cache.ts) is confirmed against it inside each event's batch.
 */
export const earningRuleVersions = sqliteTable('earning_rule_versions', {
  tenantId: text('tenant_id').primaryKey(),
  version: integer('version').notNull().default(0),
});

/**
 * Never holds a row (like customer_guard): an event's batch starts with an insert here when the
 * tenant's rule version is not the one its rules were cached at, so the batch is rolled back and
 * the rules are read again (data/earning-evaluation.ts).
 */
export const earningRulesGuard = sqliteTable('earning_rules_guard', { tenantId: text('tenant_id').notNull() }, () => [
  check('earning_rules_changed', sql`0`),
]);

/** Per-customer use of a rule in one period (`day:2026-11-26`, `week:2026-11-23`, `month:2026-11`, `year:2026`, `lifetime`). */
export const rulePeriodCounters = sqliteTable(
  'rule_period_counters',
  {
    tenantId: tenantId(),
    ruleId: text('rule_id').notNull(),
    userId: text('user_id').notNull(),
    periodKey: text('period_key').notNull(),
    times: integer('times').notNull().default(0),
    xp: integer('xp').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.userId, t.periodKey] })],
);

/** What a tenant's backend reported; append-only. */
export const programEvents = sqliteTable(
  'events',
  {
    id: id(),
    tenantId: tenantId(),
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    occurredAt: text('occurred_at').notNull(),
    properties: text('properties', { mode: 'json' }).notNull(),
    reference: text('reference'),
    xpAwarded: integer('xp_awarded').notNull().default(0),
    seq: listPosition(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('events_tenant_seq').on(t.tenantId, t.seq),
    index('events_tenant_user_seq').on(t.tenantId, t.userId, t.seq),
    index('events_tenant_type_seq').on(t.tenantId, t.type, t.seq),
  ],
);

/**
 * The rules an event applied, in evaluation order (`position`): written with the event, never
 * changed afterwards. A capped effect keeps the amount that still fit (0: no transaction).
 */
export const eventEffects = sqliteTable(
  'event_effects',
  {
    tenantId: tenantId(),
    eventId: text('event_id').notNull(),
    position: integer('position').notNull(),
    ruleId: text('rule_id').notNull(),
    ruleName: text('rule_name').notNull(),
    amount: integer('amount').notNull(),
    capped: integer('capped', { mode: 'boolean' }).notNull(),
    internalTransactionId: text('internal_transaction_id'),
    mirrorOperationId: text('mirror_operation_id'),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.position] })],
);

export type TierReview = (typeof tierReviews)[number];
export type ProgramSettingsRow = typeof programSettings.$inferSelect;
export type EarningRule = typeof earningRules.$inferSelect;
export type EarningRuleStatus = (typeof earningRuleStatuses)[number];
export type ProgramEvent = typeof programEvents.$inferSelect;
export type EventEffect = typeof eventEffects.$inferSelect;
