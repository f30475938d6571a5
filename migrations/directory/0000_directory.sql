CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`sub` text NOT NULL,
	`email` text NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`username` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_sub_unique` ON `accounts` (`sub`);--> statement-breakpoint
CREATE TABLE `api_key_directory` (
	`key_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`shard` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slug_unique` ON `tenants` (`slug`);--> statement-breakpoint
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
CREATE TABLE `relayer_nonce_assignments` (
	`operation_id` text PRIMARY KEY NOT NULL,
	`chain_id` integer NOT NULL,
	`address` text NOT NULL,
	`nonce` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `relayer_nonces` (
	`chain_id` integer NOT NULL,
	`address` text NOT NULL,
	`next_nonce` integer NOT NULL,
	`genesis_hash` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`chain_id`, `address`)
);
