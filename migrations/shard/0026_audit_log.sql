CREATE TABLE `audit_context` (
	`write_id` text PRIMARY KEY NOT NULL,
	`request_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_label` text NOT NULL,
	`action` text NOT NULL,
	`tables` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_label` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`changes` text NOT NULL,
	`request_id` text NOT NULL,
	`write_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_log_write_target` ON `audit_log` (`write_id`,`target_type`,`target_id`);--> statement-breakpoint
CREATE INDEX `audit_log_tenant_at` ON `audit_log` (`tenant_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_tenant_actor_at` ON `audit_log` (`tenant_id`,`actor_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_tenant_action_at` ON `audit_log` (`tenant_id`,`action`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_tenant_target_at` ON `audit_log` (`tenant_id`,`target_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);