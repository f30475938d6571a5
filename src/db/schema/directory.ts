import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id, timestamps } from './columns';
import { memberships } from './tenants';
import { onchainContracts } from './onchain-limits';

/**
 * The directory database (binding `DB`): who signs in, which tenants exist and the shard each
 * lives in, who may act in which tenant, which tenant an API key belongs to, and what one relayer
 * shares across every tenant. Everything else is a tenant's and lives in its shard (the other
 * files of this folder). docs/SCALING.md, "The directory and its shards".
 */

/** A person who signs in to the CMS, identified by the identity provider's `sub`. */
export const accounts = sqliteTable('accounts', {
  id: id(),
  sub: text('sub').notNull().unique(),
  email: text('email').notNull(),
  /** The identity provider's `email_verified` at the last sign-in: only a verified email may claim an invitation. */
  emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
  username: text('username').notNull(),
  ...timestamps,
});

/**
 * Every tenant and its shard: the binding name (`SHARD_0`...) of the D1 database holding its data,
 * written once in the batch that creates the tenant and never changed by the application
 * (docs/SCALING.md, "Moving a tenant").
 */
export const directoryTenants = sqliteTable('tenants', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  shard: text('shard').notNull(),
  ...timestamps,
});

/** Which tenant an API key id belongs to, for good: the gateway's way from a key to a shard. */
export const apiKeyDirectory = sqliteTable('api_key_directory', {
  keyId: text('key_id').primaryKey(),
  tenantId: text('tenant_id').notNull(),
  createdAt: timestamps.createdAt,
});

/**
 * The next nonce to hand out per (chain, relayer), for every shard: one relayer signs for all
 * tenants, so a nonce is allocated here (data/relayer-nonces.ts), never in a shard.
 */
export const relayerNonces = sqliteTable(
  'relayer_nonces',
  {
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    nextNonce: integer('next_nonce').notNull(),
    genesisHash: text('genesis_hash').notNull(),
    updatedAt: timestamps.updatedAt,
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

/**
 * The nonce each onchain operation was given, so asking again (a consumer that failed before it
 * wrote the nonce to its shard) returns the same one and never burns a second.
 */
export const relayerNonceAssignments = sqliteTable(
  'relayer_nonce_assignments',
  {
    operationId: text('operation_id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    nonce: integer('nonce').notNull(),
    createdAt: timestamps.createdAt,
  },
);

/** The relayer's native balance per chain as the minute cron last read it, and when a low balance was last logged. */
export const relayerBalances = sqliteTable(
  'relayer_balances',
  {
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    /** Wei, as a decimal string. */
    balance: text('balance').notNull(),
    checkedAt: text('checked_at').notNull(),
    lowBalanceLoggedAt: text('low_balance_logged_at'),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

/**
 * Memberships (the directory decides access) and contract claims (a contract is one tenant's
 * across every shard) have the same shape here as in a shard.
 */
export { memberships, onchainContracts };

export type Account = typeof accounts.$inferSelect;
export type DirectoryTenant = typeof directoryTenants.$inferSelect;
