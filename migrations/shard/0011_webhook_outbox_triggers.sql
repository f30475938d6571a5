-- The webhook outbox (docs/DECISIONS.md, "Webhooks"). Each change a tenant's enabled endpoint
-- subscribes to is recorded as a webhook_events row by a trigger, so it is written in the same
-- transaction as the change whatever code path made it (request, settlement consumer, cron): a
-- rolled-back change records nothing, a committed one cannot lose its event. A tenant with no
-- endpoint for the type pays one index probe. The last trigger fans an event out to one
-- webhook_deliveries row per subscribed endpoint; services/webhook-deliveries.ts sends them.
CREATE TRIGGER `webhook_customer_created` AFTER INSERT ON `customers`
WHEN EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.created')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.created', NEW.id, NULL);
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_customer_status_changed` AFTER UPDATE OF status ON `customers`
WHEN OLD.status IS NOT NEW.status AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.status_changed')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.status_changed', NEW.id, json_object('status', OLD.status));
END;
--> statement-breakpoint
-- A customer's tier is the highest threshold not above lifetime XP (oldest rule among equals,
-- domain/tiers.ts); only the customer's own XP moving them across a threshold is an event. The
-- subscription is probed before the ladder is read.
CREATE TRIGGER `webhook_customer_tier_changed` AFTER UPDATE OF lifetime_xp ON `customers`
WHEN OLD.lifetime_xp IS NOT NEW.lifetime_xp AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.tier_changed')
  AND (SELECT t.id FROM tier_rules t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold <= OLD.lifetime_xp
    ORDER BY t.min_xp_threshold DESC, t.created_at, t.id LIMIT 1) IS NOT (SELECT t.id FROM tier_rules t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold <= NEW.lifetime_xp
    ORDER BY t.min_xp_threshold DESC, t.created_at, t.id LIMIT 1)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.tier_changed', NEW.id, json_object('tier', json(coalesce((SELECT json_object('id', t.id, 'tier_name', t.tier_name) FROM tier_rules t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold <= OLD.lifetime_xp
    ORDER BY t.min_xp_threshold DESC, t.created_at, t.id LIMIT 1), 'null'))));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_internal_transaction_inserted` AFTER INSERT ON `internal_transactions`
WHEN NEW.status IN ('completed', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.transaction.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.transaction.' || NEW.status, NEW.id, NULL);
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_internal_transaction_settled` AFTER UPDATE OF status ON `internal_transactions`
WHEN OLD.status IS NOT NEW.status AND NEW.status IN ('completed', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.transaction.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.transaction.' || NEW.status, NEW.id, NULL);
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_redemption_inserted` AFTER INSERT ON `redemptions`
WHEN NEW.status IN ('completed', 'failed', 'canceled') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'redemption.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'redemption.' || NEW.status, NEW.id, NULL);
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_redemption_settled` AFTER UPDATE OF status ON `redemptions`
WHEN OLD.status IS NOT NEW.status AND NEW.status IN ('completed', 'failed', 'canceled') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'redemption.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'redemption.' || NEW.status, NEW.id, json_object('status', OLD.status));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_blockchain_transaction_inserted` AFTER INSERT ON `blockchain_transactions`
WHEN NEW.txn_status IN ('succeeded', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'onchain.transaction.' || NEW.txn_status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'onchain.transaction.' || NEW.txn_status, NEW.id, NULL);
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_blockchain_transaction_settled` AFTER UPDATE OF txn_status ON `blockchain_transactions`
WHEN OLD.txn_status IS NOT NEW.txn_status AND NEW.txn_status IN ('succeeded', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'onchain.transaction.' || NEW.txn_status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'onchain.transaction.' || NEW.txn_status, NEW.id, NULL);
END;
--> statement-breakpoint
-- One delivery per enabled endpoint subscribed to the event's type, due at once.
CREATE TRIGGER `webhook_events_fan_out` AFTER INSERT ON `webhook_events` BEGIN
  INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, next_attempt_at, created_at, updated_at)
  SELECT 'whd_' || lower(hex(randomblob(16))), e.tenant_id, e.id, NEW.id, NEW.type, NEW.created_at, NEW.created_at, NEW.created_at
  FROM webhook_endpoints e
  WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND EXISTS (SELECT 1 FROM json_each(e.event_types) j WHERE j.value = NEW.type);
END;
