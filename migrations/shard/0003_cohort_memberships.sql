CREATE TABLE `cohort_memberships` (
	`tenant_id` text NOT NULL,
	`cohort_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`customer_created_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `cohort_id`, `customer_id`)
);
--> statement-breakpoint
CREATE INDEX `cohort_memberships_newest` ON `cohort_memberships` (`tenant_id`,`cohort_id`,`customer_created_at`,`customer_id`);--> statement-breakpoint
CREATE INDEX `cohort_memberships_customer` ON `cohort_memberships` (`tenant_id`,`customer_id`);--> statement-breakpoint
CREATE TABLE `cohort_predicates` (
	`tenant_id` text NOT NULL,
	`cohort_id` text NOT NULL,
	`position` integer NOT NULL,
	`subject` text NOT NULL,
	`attribute_key` text DEFAULT '' NOT NULL,
	`op` text NOT NULL,
	`forms` text,
	`definition_id` text,
	`storage` text,
	`operand_text` text,
	`operand_number` real,
	`operand_list` text,
	PRIMARY KEY(`tenant_id`, `cohort_id`, `position`)
);
--> statement-breakpoint
CREATE INDEX `cohort_predicates_subject` ON `cohort_predicates` (`tenant_id`,`subject`,`attribute_key`);--> statement-breakpoint
CREATE INDEX `cohort_predicates_definition` ON `cohort_predicates` (`tenant_id`,`definition_id`);--> statement-breakpoint
CREATE TABLE `cohort_refreshes` (
	`tenant_id` text NOT NULL,
	`cohort_id` text NOT NULL,
	`candidates` text DEFAULT 'everyone' NOT NULL,
	`from_lifetime_xp` integer,
	`below_lifetime_xp` integer
);
--> statement-breakpoint
CREATE TABLE `compiled_cohorts` (
	`tenant_id` text NOT NULL,
	`cohort_id` text NOT NULL,
	`operator` text NOT NULL,
	`member_count` integer DEFAULT 0 NOT NULL,
	`dead_keys` text DEFAULT '[]' NOT NULL,
	PRIMARY KEY(`tenant_id`, `cohort_id`)
);
--> statement-breakpoint
CREATE TABLE `customer_refreshes` (
	`tenant_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`cohort_ids` text NOT NULL
);
