CREATE TABLE `gateway_signature_uses` (
	`tenant_id` text NOT NULL,
	`signature` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `signature`)
);
--> statement-breakpoint
CREATE INDEX `gateway_signature_uses_expires` ON `gateway_signature_uses` (`expires_at`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `email_verified` integer DEFAULT false NOT NULL;