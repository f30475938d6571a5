CREATE TABLE `xp_token_openings` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`onchain_asset_id` text NOT NULL,
	`user_id` text NOT NULL,
	`epoch` integer NOT NULL,
	`xp` integer NOT NULL,
	`operation_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `xp_token_openings_once` ON `xp_token_openings` (`onchain_asset_id`,`user_id`,`epoch`);--> statement-breakpoint
CREATE INDEX `xp_token_openings_tenant_user` ON `xp_token_openings` (`tenant_id`,`user_id`);--> statement-breakpoint
ALTER TABLE `onchain_assets` ADD `opening_epoch` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `onchain_assets` ADD `opening_cursor` integer;--> statement-breakpoint
ALTER TABLE `onchain_assets` ADD `opening_completed_at` text;--> statement-breakpoint
ALTER TABLE `onchain_assets` ADD `opening_block` integer;