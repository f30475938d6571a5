CREATE TABLE `export_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`cohort_id` text,
	`period_from` text,
	`period_to` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`rows` integer DEFAULT 0 NOT NULL,
	`run_id` text,
	`file_key` text,
	`failure_reason` text,
	`created_by` text NOT NULL,
	`started_at` text,
	`completed_at` text,
	`expired_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `export_jobs_tenant_created` ON `export_jobs` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `export_jobs_completed` ON `export_jobs` (`status`,`completed_at`);--> statement-breakpoint
CREATE INDEX `customers_tenant_erased` ON `customers` (`tenant_id`,`erased_at`) WHERE "customers"."erased_at" IS NOT NULL;