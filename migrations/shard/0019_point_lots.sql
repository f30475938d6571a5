CREATE TABLE `lot_chunk` (
	`lot_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`transaction_id` text,
	`amount` integer NOT NULL,
	`settles` integer NOT NULL,
	`operation_id` text
);
--> statement-breakpoint
CREATE TABLE `lot_debits` (
	`debit_transaction_id` text NOT NULL,
	`lot_id` text NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`debit_transaction_id`, `lot_id`)
);
--> statement-breakpoint
CREATE INDEX `lot_debits_lot` ON `lot_debits` (`lot_id`);--> statement-breakpoint
CREATE TABLE `lot_givebacks` (
	`debit_transaction_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`amount` integer NOT NULL,
	`at` text NOT NULL,
	`rest_as_lot` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `point_lot_guard` (
	`lot_id` text NOT NULL,
	CONSTRAINT "point_lot_changed" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `point_lots` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`internal_transaction_id` text,
	`amount` integer NOT NULL,
	`remaining` integer NOT NULL,
	`reversed` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`available_at` text NOT NULL,
	`expires_at` text,
	`activated_at` text,
	`notice_at` text,
	`notice_sent_at` text,
	`expired_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "point_lot_remaining_in_amount" CHECK("point_lots"."remaining" >= 0 AND "point_lots"."remaining" <= "point_lots"."amount"),
	CONSTRAINT "point_lot_reversed_in_amount" CHECK("point_lots"."reversed" >= 0 AND "point_lots"."reversed" <= "point_lots"."amount")
);
--> statement-breakpoint
CREATE INDEX `point_lots_spend_order` ON `point_lots` (`user_id`,`status`,"expires_at" IS NULL,`expires_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `point_lots_tenant_user_created` ON `point_lots` (`tenant_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `point_lots_credit` ON `point_lots` (`internal_transaction_id`);--> statement-breakpoint
CREATE INDEX `point_lots_activation_due` ON `point_lots` (`available_at`) WHERE "point_lots"."activated_at" IS NULL;--> statement-breakpoint
CREATE INDEX `point_lots_expiry_due` ON `point_lots` (`expires_at`) WHERE "point_lots"."status" = 'active' AND "point_lots"."expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `point_lots_notice_due` ON `point_lots` (`notice_at`) WHERE "point_lots"."notice_sent_at" IS NULL AND "point_lots"."notice_at" IS NOT NULL;