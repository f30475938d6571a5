CREATE TABLE `tenant_counts` (
	`tenant_id` text NOT NULL,
	`subject` text NOT NULL,
	`bucket` text NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `subject`, `bucket`)
);
--> statement-breakpoint
DROP INDEX `customers_tenant_status`;--> statement-breakpoint
ALTER TABLE `customers` ADD `seq` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `customers_tenant_seq` ON `customers` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE INDEX `customers_tenant_status_seq` ON `customers` (`tenant_id`,`status`,`seq`);--> statement-breakpoint
DROP INDEX `internal_transactions_tenant_type_status`;--> statement-breakpoint
ALTER TABLE `internal_transactions` ADD `seq` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `internal_transactions_tenant_seq` ON `internal_transactions` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE INDEX `internal_transactions_tenant_user_seq` ON `internal_transactions` (`tenant_id`,`user_id`,`seq`);--> statement-breakpoint
CREATE INDEX `internal_transactions_tenant_type_status_seq` ON `internal_transactions` (`tenant_id`,`type`,`status`,`seq`);--> statement-breakpoint
CREATE INDEX `internal_transactions_tenant_status_seq` ON `internal_transactions` (`tenant_id`,`status`,`seq`);--> statement-breakpoint
DROP INDEX `redemptions_tenant_reward`;--> statement-breakpoint
DROP INDEX `redemptions_tenant_user`;--> statement-breakpoint
ALTER TABLE `redemptions` ADD `seq` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `redemptions_tenant_seq` ON `redemptions` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE INDEX `redemptions_tenant_status_seq` ON `redemptions` (`tenant_id`,`status`,`seq`);--> statement-breakpoint
CREATE INDEX `redemptions_tenant_user_seq` ON `redemptions` (`tenant_id`,`user_id`,`seq`);--> statement-breakpoint
CREATE INDEX `redemptions_tenant_reward_seq` ON `redemptions` (`tenant_id`,`reward_id`,`seq`);