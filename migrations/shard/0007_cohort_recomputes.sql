CREATE TABLE `cohort_recomputes` (
	`tenant_id` text NOT NULL,
	`cohort_id` text NOT NULL,
	`candidates` text NOT NULL,
	`from_lifetime_xp` integer,
	`below_lifetime_xp` integer,
	`next_seq` integer DEFAULT 1 NOT NULL,
	`until_seq` integer NOT NULL,
	`requested_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`tenant_id`, `cohort_id`)
);
--> statement-breakpoint
CREATE INDEX `cohort_recomputes_requested` ON `cohort_recomputes` (`requested_at`);--> statement-breakpoint
ALTER TABLE `cohort_refreshes` ADD `from_seq` integer;--> statement-breakpoint
ALTER TABLE `cohort_refreshes` ADD `to_seq` integer;