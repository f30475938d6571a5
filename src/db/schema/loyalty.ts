import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, sqliteView, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, listPosition, tenantId, timestamps } from './columns';

export const tierRules = sqliteTable(
  'tier_rules',
  {
    id: id(),
    tenantId: tenantId(),
    tierName: text('tier_name').notNull(),
    minXpThreshold: integer('min_xp_threshold').notNull(),
    benefitsDescription: text('benefits_description').notNull().default(''),
    color: text('color').notNull().default(''),
    icon: text('icon').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tier_rules_tenant_name').on(t.tenantId, t.tierName),
    index('tier_rules_tenant_threshold').on(t.tenantId, t.minXpThreshold),
  ],
);

/**
 * Tier placement (view `tier_placements`, defined in src/db/sql/tier-placement.sql; drizzle-kit
 * leaves it alone): the tier rules that place customers, one per threshold (the oldest of equal
 * ones), each with the band of lifetime XP it places, up to `belowLifetimeXp` (null for the top).
 */
export const tierPlacements = sqliteView('tier_placements', {
  tenantId: text('tenant_id').notNull(),
  tierId: text('tier_id').notNull(),
  tierName: text('tier_name').notNull(),
  minXpThreshold: integer('min_xp_threshold').notNull(),
  belowLifetimeXp: integer('below_lifetime_xp'),
}).existing();

export const rewardStatuses = ['draft', 'active', 'archived'] as const;

export const rewards = sqliteTable(
  'rewards',
  {
    id: id(),
    tenantId: tenantId(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    xpCost: integer('xp_cost').notNull(),
    status: text('status', { enum: rewardStatuses }).notNull().default('draft'),
    minTierId: text('min_tier_id'),
    onchainAssetId: text('onchain_asset_id'),
    /** Remaining units; null means unlimited. */
    stock: integer('stock'),
    metadata: text('metadata', { mode: 'json' }),
    ...timestamps,
  },
  (t) => [
    index('rewards_tenant_created').on(t.tenantId, t.createdAt),
    index('rewards_tenant_status').on(t.tenantId, t.status),
    check('reward_stock_never_negative', sql`${t.stock} IS NULL OR ${t.stock} >= 0`),
  ],
);

export const redemptionStatuses = ['initialized', 'pending', 'completed', 'failed', 'canceled'] as const;

export const redemptions = sqliteTable(
  'redemptions',
  {
    id: id(),
    tenantId: tenantId(),
    userId: text('user_id').notNull(),
    rewardId: text('reward_id').notNull(),
    status: text('status', { enum: redemptionStatuses }).notNull(),
    xpSpent: integer('xp_spent').notNull(),
    seq: listPosition(),
    ...timestamps,
  },
  (t) => [
    index('redemptions_tenant_created').on(t.tenantId, t.createdAt),
    uniqueIndex('redemptions_tenant_seq').on(t.tenantId, t.seq),
    index('redemptions_tenant_status_seq').on(t.tenantId, t.status, t.seq),
    index('redemptions_tenant_user_seq').on(t.tenantId, t.userId, t.seq),
    index('redemptions_tenant_reward_seq').on(t.tenantId, t.rewardId, t.seq),
  ],
);

/**
 * Never holds a row (like api_key_guard): a redemption's write batch inserts into it only when the
 * customer, reward or tier no longer allow the redemption at write time, which rolls the whole
 * batch back, so a status change racing a redemption cannot slip through (services/redemptions.ts).
 */
export const redemptionGuard = sqliteTable(
  'redemption_guard',
  { redemptionId: text('redemption_id').notNull() },
  () => [check('redemption_not_allowed', sql`0`)],
);

export const transactionTypes = ['xp_earn', 'xp_bonus', 'xp_admin_adjust', 'xp_redeem', 'xp_expire', 'xp_reversal'] as const;
export const transactionStatuses = ['initialized', 'pending', 'completed', 'failed'] as const;

/** The XP ledger: append-only; a row's status may move forward, its amount never changes. */
export const internalTransactions = sqliteTable(
  'internal_transactions',
  {
    id: id(),
    tenantId: tenantId(),
    userId: text('user_id'),
    onchainAssetId: text('onchain_asset_id'),
    redemptionId: text('redemption_id'),
    type: text('type', { enum: transactionTypes }).notNull(),
    amount: integer('amount').notNull(),
    metadata: text('metadata', { mode: 'json' }),
    notes: text('notes'),
    status: text('status', { enum: transactionStatuses }).notNull(),
    seq: listPosition(),
    ...timestamps,
  },
  (t) => [
    index('internal_transactions_tenant_created').on(t.tenantId, t.createdAt),
    uniqueIndex('internal_transactions_tenant_seq').on(t.tenantId, t.seq),
    index('internal_transactions_tenant_user_seq').on(t.tenantId, t.userId, t.seq),
    index('internal_transactions_tenant_type_status_seq').on(t.tenantId, t.type, t.status, t.seq),
    index('internal_transactions_tenant_status_seq').on(t.tenantId, t.status, t.seq),
    index('internal_transactions_tenant_user').on(t.tenantId, t.userId, t.createdAt),
    index('internal_transactions_tenant_redemption').on(t.tenantId, t.redemptionId),
    // A redemption is refunded (canceled or failed) at most once, even when two cancels race.
    uniqueIndex('internal_transactions_one_refund_per_redemption')
      .on(t.tenantId, t.redemptionId)
      .where(sql`${t.type} = 'xp_redeem' AND ${t.amount} > 0`),
  ],
);

/**
 * Never holds a row (like api_key_guard): a ledger batch starts with
 * `INSERT ... SELECT WHERE NOT EXISTS (customer of the tenant in an allowed status)`, so a missing,
 * suspended or pending customer aborts the whole batch in the same D1 transaction as the write
 * (data/ledger.ts `customerGuardStatement`): a suspension cannot race an earn.
 */
export const customerGuard = sqliteTable(
  'customer_guard',
  { userId: text('user_id').notNull() },
  () => [check('customer_not_eligible', sql`0`)],
);

export type TierRule = typeof tierRules.$inferSelect;
export type Reward = typeof rewards.$inferSelect;
export type Redemption = typeof redemptions.$inferSelect;
export type InternalTransaction = typeof internalTransactions.$inferSelect;
export type TransactionType = (typeof transactionTypes)[number];
export type TransactionStatus = (typeof transactionStatuses)[number];
