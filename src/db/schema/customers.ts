import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, listPosition, tenantId, timestamps } from './columns';

export const customerStatuses = ['pending', 'active', 'suspended', 'reinstated'] as const;

/**
 * A tenant's end customer. `xp_balance` and `lifetime_xp` are kept in step with the append-only
 * ledger (internal_transactions) inside the same D1 batch that appends to it.
 */
export const customers = sqliteTable(
  'customers',
  {
    id: id(),
    tenantId: tenantId(),
    externalId: text('external_id').notNull(),
    email: text('email'),
    username: text('username'),
    countryCode: text('country_code'),
    status: text('status', { enum: customerStatuses }).notNull().default('active'),
    xpBalance: integer('xp_balance').notNull().default(0),
    lifetimeXp: integer('lifetime_xp').notNull().default(0),
    /**
     * Tiers on `earned_in_period` (docs/POINTS.md, "Tiers on XP earned in a period"): the customer
     * holds `tier_id` until `tier_valid_until` (the review that may lower it). False: the tier is
     * placed by `lifetime_xp` (src/db/sql/tier-placement.sql) and the two columns are null.
     */
    tierHeld: integer('tier_held', { mode: 'boolean' }).notNull().default(false),
    tierId: text('tier_id'),
    tierValidUntil: text('tier_valid_until'),
    /** When the person's data was erased (docs/OPERATIONS.md, "Erasure"): email, username, external id and attribute values are gone. */
    erasedAt: text('erased_at'),
    seq: listPosition(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('customers_tenant_external').on(t.tenantId, t.externalId),
    uniqueIndex('customers_tenant_seq').on(t.tenantId, t.seq),
    index('customers_tenant_status_seq').on(t.tenantId, t.status, t.seq),
    index('customers_tenant_created').on(t.tenantId, t.createdAt),
    index('customers_tenant_email').on(t.tenantId, t.email),
    index('customers_tenant_country').on(t.tenantId, t.countryCode),
    // The tenant's latest erasure, read by exports: a file begun before it may hold the person (docs/OPERATIONS.md, "Exports").
    index('customers_tenant_erased').on(t.tenantId, t.erasedAt).where(sql`${t.erasedAt} IS NOT NULL`),
    index('customers_tier_review_due').on(t.tierValidUntil).where(sql`${t.tierValidUntil} IS NOT NULL`),
    // Who holds a tier (deleting it is refused), and who is on either basis (a settings save moves them).
    index('customers_tenant_tier_holders').on(t.tenantId, t.tierId).where(sql`${t.tierId} IS NOT NULL`),
    index('customers_tenant_tier_basis').on(t.tenantId, t.tierHeld),
    // Empty for tenants on lifetime XP: the held-tier probe of every credit lot costs them nothing (src/db/sql/tier-retention.sql).
    index('customers_tier_held').on(t.id).where(sql`${t.tierHeld} = 1`),
    // The rule "a balance never goes below zero" lives here: any batch that would break it is
    // rolled back whole by D1, whatever the concurrency (see data/ledger.ts).
    check('xp_balance_never_negative', sql`${t.xpBalance} >= 0`),
  ],
);

/** A customer's custodial wallet, derived from WALLET_MNEMONIC at `derivation_index`. */
export const internalWallets = sqliteTable(
  'internal_wallets',
  {
    id: id(),
    tenantId: tenantId(),
    userId: text('user_id').notNull(),
    address: text('address').notNull(),
    walletKind: text('wallet_kind').notNull().default('custodial'),
    label: text('label').notNull(),
    derivationIndex: integer('derivation_index').notNull().unique(),
    deletedAt: text('deleted_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('internal_wallets_tenant_user_kind').on(t.tenantId, t.userId, t.walletKind),
    index('internal_wallets_address').on(t.address),
  ],
);

/**
 * Platform-wide counters, one row per name, advanced atomically with
 * `INSERT ... ON CONFLICT DO UPDATE SET value = value + 1 RETURNING value` (data/sequences.ts).
 * `custodial_wallet` hands out the HD derivation index of each new custodial wallet.
 */
export const sequences = sqliteTable('sequences', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
});

export type Customer = typeof customers.$inferSelect;
export type CustomerStatus = (typeof customerStatuses)[number];
export type InternalWallet = typeof internalWallets.$inferSelect;
