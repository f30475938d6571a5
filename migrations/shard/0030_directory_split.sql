DROP TABLE `accounts`;--> statement-breakpoint
DROP TABLE `portal_member_guard`;--> statement-breakpoint
DROP TABLE `relayer_nonces`;--> statement-breakpoint
DROP TABLE `relayer_balances`;--> statement-breakpoint
DROP INDEX `tenants_slug_unique`;