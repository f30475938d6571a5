CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`sub` text NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_sub_unique` ON `accounts` (`sub`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`account_id` text,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_tenant_email` ON `memberships` (`tenant_id`,`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_tenant_account` ON `memberships` (`tenant_id`,`account_id`);--> statement-breakpoint
CREATE INDEX `memberships_account` ON `memberships` (`account_id`);--> statement-breakpoint
CREATE INDEX `memberships_email` ON `memberships` (`email`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slug_unique` ON `tenants` (`slug`);--> statement-breakpoint
CREATE TABLE `api_key_guard` (
	`key_id` text NOT NULL,
	CONSTRAINT "api_key_not_active" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key_id` text NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`secret_prefix` text NOT NULL,
	`secret_suffix` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`expires_at` text,
	`last_used_at` text,
	`revoked_at` text,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_id_unique` ON `api_keys` (`key_id`);--> statement-breakpoint
CREATE INDEX `api_keys_tenant_created` ON `api_keys` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`external_id` text NOT NULL,
	`email` text,
	`username` text,
	`country_code` text,
	`status` text DEFAULT 'active' NOT NULL,
	`xp_balance` integer DEFAULT 0 NOT NULL,
	`lifetime_xp` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "xp_balance_never_negative" CHECK("customers"."xp_balance" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_tenant_external` ON `customers` (`tenant_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `customers_tenant_created` ON `customers` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `customers_tenant_email` ON `customers` (`tenant_id`,`email`);--> statement-breakpoint
CREATE INDEX `customers_tenant_status` ON `customers` (`tenant_id`,`status`);--> statement-breakpoint
CREATE INDEX `customers_tenant_country` ON `customers` (`tenant_id`,`country_code`);--> statement-breakpoint
CREATE TABLE `internal_wallets` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`address` text NOT NULL,
	`wallet_kind` text DEFAULT 'custodial' NOT NULL,
	`label` text NOT NULL,
	`derivation_index` integer NOT NULL,
	`deleted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `internal_wallets_derivation_index_unique` ON `internal_wallets` (`derivation_index`);--> statement-breakpoint
CREATE UNIQUE INDEX `internal_wallets_tenant_user_kind` ON `internal_wallets` (`tenant_id`,`user_id`,`wallet_kind`);--> statement-breakpoint
CREATE INDEX `internal_wallets_address` ON `internal_wallets` (`address`);--> statement-breakpoint
CREATE TABLE `sequences` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `customer_guard` (
	`user_id` text NOT NULL,
	CONSTRAINT "customer_not_eligible" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `internal_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text,
	`onchain_asset_id` text,
	`redemption_id` text,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`metadata` text,
	`notes` text,
	`status` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `internal_transactions_tenant_created` ON `internal_transactions` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `internal_transactions_tenant_user` ON `internal_transactions` (`tenant_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `internal_transactions_tenant_type_status` ON `internal_transactions` (`tenant_id`,`type`,`status`);--> statement-breakpoint
CREATE INDEX `internal_transactions_tenant_redemption` ON `internal_transactions` (`tenant_id`,`redemption_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `internal_transactions_one_refund_per_redemption` ON `internal_transactions` (`tenant_id`,`redemption_id`) WHERE "internal_transactions"."type" = 'xp_redeem' AND "internal_transactions"."amount" > 0;--> statement-breakpoint
CREATE TABLE `redemption_guard` (
	`redemption_id` text NOT NULL,
	CONSTRAINT "redemption_not_allowed" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `redemptions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reward_id` text NOT NULL,
	`status` text NOT NULL,
	`xp_spent` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `redemptions_tenant_created` ON `redemptions` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `redemptions_tenant_reward` ON `redemptions` (`tenant_id`,`reward_id`);--> statement-breakpoint
CREATE INDEX `redemptions_tenant_user` ON `redemptions` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `rewards` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`xp_cost` integer NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`min_tier_id` text,
	`onchain_asset_id` text,
	`stock` integer,
	`metadata` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "reward_stock_never_negative" CHECK("rewards"."stock" IS NULL OR "rewards"."stock" >= 0)
);
--> statement-breakpoint
CREATE INDEX `rewards_tenant_created` ON `rewards` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `rewards_tenant_status` ON `rewards` (`tenant_id`,`status`);--> statement-breakpoint
CREATE TABLE `tier_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`tier_name` text NOT NULL,
	`min_xp_threshold` integer NOT NULL,
	`benefits_description` text DEFAULT '' NOT NULL,
	`color` text DEFAULT '' NOT NULL,
	`icon` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tier_rules_tenant_name` ON `tier_rules` (`tenant_id`,`tier_name`);--> statement-breakpoint
CREATE INDEX `tier_rules_tenant_threshold` ON `tier_rules` (`tenant_id`,`min_xp_threshold`);--> statement-breakpoint
CREATE TABLE `blockchain_transaction_links` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`internal_transaction_id` text NOT NULL,
	`blockchain_transaction_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blockchain_transaction_links_pair` ON `blockchain_transaction_links` (`tenant_id`,`internal_transaction_id`,`blockchain_transaction_id`);--> statement-breakpoint
CREATE TABLE `blockchain_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`chain_id` integer,
	`metadata` text,
	`receipt_block_hash` text,
	`receipt_block_number` text,
	`receipt_block_timestamp` integer,
	`receipt_gas_price` text,
	`receipt_gas_used` text,
	`receipt_status` integer,
	`receipt_transaction_index` integer,
	`tx_data` text,
	`tx_from` text,
	`tx_to` text,
	`tx_gas_limit` text,
	`tx_gas_price` text,
	`tx_max_fee_per_gas` text,
	`tx_max_priority_fee_per_gas` text,
	`tx_nonce` integer,
	`tx_type` integer,
	`tx_value` text,
	`tx_hash` text,
	`txn_status` text DEFAULT 'initialized' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `blockchain_transactions_tenant_created` ON `blockchain_transactions` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `blockchain_transactions_hash` ON `blockchain_transactions` (`tx_hash`);--> statement-breakpoint
CREATE TABLE `customer_asset_balances` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`onchain_asset_id` text NOT NULL,
	`internal_wallet_id` text NOT NULL,
	`asset_address` text NOT NULL,
	`chain_id` integer NOT NULL,
	`user_address` text NOT NULL,
	`token_id` text DEFAULT '' NOT NULL,
	`balance` text NOT NULL,
	`last_updated_block` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_asset_balances_holding` ON `customer_asset_balances` (`tenant_id`,`onchain_asset_id`,`user_address`,`token_id`);--> statement-breakpoint
CREATE INDEX `customer_asset_balances_tenant_user` ON `customer_asset_balances` (`tenant_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `onchain_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text,
	`type` text NOT NULL,
	`chain_id` integer NOT NULL,
	`asset_address` text NOT NULL,
	`decimals` integer,
	`name` text,
	`symbol` text,
	`status` text DEFAULT 'active' NOT NULL,
	`deploy_tx_hash` text,
	`deployed_at` text,
	`metadata` text,
	`total_owners` integer,
	`total_txns` integer,
	`last_indexed_block` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `onchain_assets_tenant_key` ON `onchain_assets` (`tenant_id`,`key`);--> statement-breakpoint
CREATE INDEX `onchain_assets_tenant_created` ON `onchain_assets` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `attribute_definitions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`type` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attribute_definitions_tenant_key` ON `attribute_definitions` (`tenant_id`,`key`);--> statement-breakpoint
CREATE TABLE `cohorts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`rules` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cohorts_tenant_created` ON `cohorts` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `customer_attribute_values` (
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`definition_id` text NOT NULL,
	`value_text` text,
	`value_number` real,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`tenant_id`, `user_id`, `definition_id`)
);
--> statement-breakpoint
CREATE INDEX `customer_attribute_values_definition` ON `customer_attribute_values` (`tenant_id`,`definition_id`);--> statement-breakpoint
CREATE TABLE `idempotency_records` (
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_records_expires` ON `idempotency_records` (`expires_at`);