CREATE TABLE `earning_rule_versions` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `earning_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`event_type` text NOT NULL,
	`status` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`stackable` integer DEFAULT true NOT NULL,
	`conditions` text NOT NULL,
	`effect` text NOT NULL,
	`multipliers` text NOT NULL,
	`limits` text NOT NULL,
	`total_xp_budget` integer,
	`starts_at` text,
	`ends_at` text,
	`times_applied` integer DEFAULT 0 NOT NULL,
	`xp_awarded` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `earning_rules_tenant_created` ON `earning_rules` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `earning_rules_tenant_type` ON `earning_rules` (`tenant_id`,`event_type`,`status`);--> statement-breakpoint
CREATE TABLE `earning_rules_guard` (
	`tenant_id` text NOT NULL,
	CONSTRAINT "earning_rules_changed" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `event_effects` (
	`tenant_id` text NOT NULL,
	`event_id` text NOT NULL,
	`position` integer NOT NULL,
	`rule_id` text NOT NULL,
	`rule_name` text NOT NULL,
	`amount` integer NOT NULL,
	`capped` integer NOT NULL,
	`internal_transaction_id` text,
	`mirror_operation_id` text,
	PRIMARY KEY(`event_id`, `position`)
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`occurred_at` text NOT NULL,
	`properties` text NOT NULL,
	`reference` text,
	`xp_awarded` integer DEFAULT 0 NOT NULL,
	`seq` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_tenant_seq` ON `events` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE INDEX `events_tenant_user_seq` ON `events` (`tenant_id`,`user_id`,`seq`);--> statement-breakpoint
CREATE INDEX `events_tenant_type_seq` ON `events` (`tenant_id`,`type`,`seq`);--> statement-breakpoint
CREATE TABLE `program_settings` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`points_pending_period` text,
	`points_validity` text,
	`points_expiry_rounding` text DEFAULT 'none' NOT NULL,
	`points_expiry_notice` text,
	`tiers_basis` text DEFAULT 'lifetime' NOT NULL,
	`tiers_period` text,
	`tiers_downgrade` text DEFAULT 'none' NOT NULL,
	`tiers_review` text DEFAULT 'yearly' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rule_period_counters` (
	`tenant_id` text NOT NULL,
	`rule_id` text NOT NULL,
	`user_id` text NOT NULL,
	`period_key` text NOT NULL,
	`times` integer DEFAULT 0 NOT NULL,
	`xp` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`rule_id`, `user_id`, `period_key`)
);
