CREATE TABLE `import_chunks` (
	`import_id` text NOT NULL,
	`chunk` integer NOT NULL,
	`tenant_id` text NOT NULL,
	`applied_at` text NOT NULL,
	PRIMARY KEY(`import_id`, `chunk`)
);
--> statement-breakpoint
CREATE TABLE `import_errors` (
	`import_id` text NOT NULL,
	`row` integer NOT NULL,
	`tenant_id` text NOT NULL,
	`message` text NOT NULL,
	PRIMARY KEY(`import_id`, `row`)
);
--> statement-breakpoint
CREATE TABLE `import_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`file_sha256` text NOT NULL,
	`file_key` text,
	`file_bytes` integer NOT NULL,
	`columns` text NOT NULL,
	`chunk_offsets` text NOT NULL,
	`chunk_rows` integer NOT NULL,
	`chunks_total` integer NOT NULL,
	`chunks_done` integer DEFAULT 0 NOT NULL,
	`rows_total` integer NOT NULL,
	`rows_ok` integer DEFAULT 0 NOT NULL,
	`rows_failed` integer DEFAULT 0 NOT NULL,
	`error_file_key` text,
	`created_by` text NOT NULL,
	`completed_at` text,
	`files_deleted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_jobs_tenant_kind_file` ON `import_jobs` (`tenant_id`,`kind`,`file_sha256`);--> statement-breakpoint
CREATE INDEX `import_jobs_tenant_created` ON `import_jobs` (`tenant_id`,`created_at`);--> statement-breakpoint
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