CREATE TABLE `deploy_limit_guard` (
	`tenant_id` text NOT NULL,
	CONSTRAINT "onchain_deploy_limit" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `onchain_contracts` (
	`chain_id` integer NOT NULL,
	`address` text NOT NULL,
	`tenant_id` text NOT NULL,
	`origin` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`chain_id`, `address`)
);
--> statement-breakpoint
CREATE TABLE `relayer_balances` (
	`chain_id` integer NOT NULL,
	`address` text NOT NULL,
	`balance` text NOT NULL,
	`checked_at` text NOT NULL,
	`low_balance_logged_at` text,
	PRIMARY KEY(`chain_id`, `address`)
);
--> statement-breakpoint
CREATE TABLE `tenant_gas_usage` (
	`tenant_id` text NOT NULL,
	`day` text NOT NULL,
	`gas_reserved` integer DEFAULT 0 NOT NULL,
	`budget` integer NOT NULL,
	`exhausted` integer DEFAULT false NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`tenant_id`, `day`)
);
--> statement-breakpoint
ALTER TABLE `onchain_assets` ADD `indexed_supply` text;--> statement-breakpoint
ALTER TABLE `onchain_operations` ADD `reserved_gas` integer;--> statement-breakpoint
ALTER TABLE `onchain_operations` ADD `gas_reservation` text;--> statement-breakpoint
CREATE INDEX `onchain_operations_tenant_deploys` ON `onchain_operations` (`tenant_id`) WHERE "onchain_operations"."kind" = 'deploy';