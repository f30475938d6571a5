CREATE TABLE `tier_review_chunk` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`tier_id` text,
	`valid_until` text
);
--> statement-breakpoint
CREATE TABLE `tier_review_dates` (
	`tenant_id` text NOT NULL,
	`review_at` text NOT NULL,
	`window_start` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `review_at`)
);
--> statement-breakpoint
CREATE INDEX `tier_review_dates_window` ON `tier_review_dates` (`tenant_id`,`window_start`);--> statement-breakpoint
ALTER TABLE `customers` ADD `tier_held` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `customers` ADD `tier_id` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `tier_valid_until` text;--> statement-breakpoint
CREATE INDEX `customers_tier_review_due` ON `customers` (`tier_valid_until`) WHERE "customers"."tier_valid_until" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `customers_tenant_tier_holders` ON `customers` (`tenant_id`,`tier_id`) WHERE "customers"."tier_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `customers_tenant_tier_basis` ON `customers` (`tenant_id`,`tier_held`);--> statement-breakpoint
CREATE INDEX `customers_tier_held` ON `customers` (`id`) WHERE "customers"."tier_held" = 1;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `reason` text;--> statement-breakpoint
ALTER TABLE `program_settings` ADD `tiers_period_months` integer;--> statement-breakpoint
ALTER TABLE `program_settings` ADD `tiers_period_seconds` integer;