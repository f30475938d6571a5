import { sql } from 'drizzle-orm';
import { check, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';

export const onchainContractOrigins = ['registered', 'deployed'] as const;

/**
 * Which tenant a contract belongs to, across all tenants: the relayer can mint on every contract
 * the platform deployed or a tenant registered, so a (chain, address) is one tenant's for good
 * (deleting the asset does not release it). Claimed by triggers on `onchain_assets` whenever an
 * address is set, and for a deploy when its transaction is signed (the address is known from the
 * relayer's nonce), so a contract is claimed before its code exists onchain (src/db/sql/onchain-ownership.sql).
 */
export const onchainContracts = sqliteTable(
  'onchain_contracts',
  {
    chainId: integer('chain_id').notNull(),
    /** Checksummed (EIP-55), as `onchain_assets.asset_address` stores it. */
    address: text('address').notNull(),
    tenantId: text('tenant_id').notNull(),
    origin: text('origin', { enum: onchainContractOrigins }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

/**
 * Gas the relayer may spend per tenant per UTC day: each operation reserves its gas limit before
 * its nonce (services/settlement.ts). `budget` is the limit the last reservation was checked
 * against; `exhausted` is set when one did not fit, and from then on a trigger refuses new onchain
 * operations of the tenant for the rest of the day (unless the budget is raised: the minute cron
 * clears it).
 */
export const tenantGasUsage = sqliteTable(
  'tenant_gas_usage',
  {
    tenantId: text('tenant_id').notNull(),
    /** UTC date, YYYY-MM-DD. */
    day: text('day').notNull(),
    gasReserved: integer('gas_reserved').notNull().default(0),
    budget: integer('budget').notNull(),
    exhausted: integer('exhausted', { mode: 'boolean' }).notNull().default(false),
    updatedAt: timestamps.updatedAt,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

/**
 * Never holds a row (like customer_guard): a deploy's batch starts with an insert here when the
 * tenant already has as many platform deploys as allowed, which aborts the whole batch.
 */
export const deployLimitGuard = sqliteTable(
  'deploy_limit_guard',
  { tenantId: text('tenant_id').notNull() },
  () => [check('onchain_deploy_limit', sql`0`)],
);

export type OnchainContract = typeof onchainContracts.$inferSelect;
