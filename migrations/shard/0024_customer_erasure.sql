ALTER TABLE `customers` ADD `erased_at` text;--> statement-breakpoint
CREATE INDEX `webhook_events_tenant_resource` ON `webhook_events` (`tenant_id`,`resource_id`);