CREATE TABLE `onchain_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`chain_id` integer NOT NULL,
	`onchain_asset_id` text NOT NULL,
	`internal_transaction_id` text,
	`redemption_id` text,
	`depends_on_operation_id` text,
	`recipient` text,
	`amount` text,
	`token_id` text,
	`relayer_address` text,
	`nonce` integer,
	`error_count` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `onchain_operations_status` ON `onchain_operations` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `onchain_operations_tenant_transaction` ON `onchain_operations` (`tenant_id`,`internal_transaction_id`);--> statement-breakpoint
CREATE INDEX `onchain_operations_tenant_asset` ON `onchain_operations` (`tenant_id`,`onchain_asset_id`,`status`);--> statement-breakpoint
CREATE INDEX `onchain_operations_dependency` ON `onchain_operations` (`depends_on_operation_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `onchain_operations_nonce` ON `onchain_operations` (`chain_id`,`relayer_address`,`nonce`) WHERE "onchain_operations"."nonce" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `relayer_nonces` (
	`chain_id` integer NOT NULL,
	`address` text NOT NULL,
	`next_nonce` integer NOT NULL,
	`genesis_hash` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`chain_id`, `address`)
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_onchain_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text,
	`type` text NOT NULL,
	`chain_id` integer NOT NULL,
	`asset_address` text,
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
	`indexed_genesis_hash` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_onchain_assets`("id", "tenant_id", "key", "type", "chain_id", "asset_address", "decimals", "name", "symbol", "status", "deploy_tx_hash", "deployed_at", "metadata", "total_owners", "total_txns", "last_indexed_block", "indexed_genesis_hash", "created_at", "updated_at") SELECT "id", "tenant_id", "key", "type", "chain_id", "asset_address", "decimals", "name", "symbol", "status", "deploy_tx_hash", "deployed_at", "metadata", "total_owners", "total_txns", "last_indexed_block", "indexed_genesis_hash", "created_at", "updated_at" FROM `onchain_assets`;--> statement-breakpoint
DROP TABLE `onchain_assets`;--> statement-breakpoint
ALTER TABLE `__new_onchain_assets` RENAME TO `onchain_assets`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `onchain_assets_tenant_key` ON `onchain_assets` (`tenant_id`,`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `onchain_assets_tenant_address` ON `onchain_assets` (`tenant_id`,`chain_id`,`asset_address`);--> statement-breakpoint
CREATE INDEX `onchain_assets_tenant_created` ON `onchain_assets` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `onchain_assets_status` ON `onchain_assets` (`status`);--> statement-breakpoint
ALTER TABLE `blockchain_transactions` ADD `operation_id` text;--> statement-breakpoint
ALTER TABLE `blockchain_transactions` ADD `attempt` integer;--> statement-breakpoint
ALTER TABLE `blockchain_transactions` ADD `raw_transaction` text;--> statement-breakpoint
CREATE UNIQUE INDEX `blockchain_transactions_operation_attempt` ON `blockchain_transactions` (`operation_id`,`attempt`);