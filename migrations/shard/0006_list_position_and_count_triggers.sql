-- List positions and tenant counts kept by the database itself (docs/PERFORMANCE.md).
-- `seq` numbers a tenant's customers, internal transactions and redemptions 1, 2, 3... in insertion
-- order (none of them is ever deleted), so any page of a newest-first list is a range of positions.
-- `tenant_counts` holds the totals the lists and analytics answer with; every insert and status
-- change moves them in its own transaction. Buckets (domain/tenant-counts.ts): `all`,
-- `status=S`, `type=T`, `type=T&status=S`; active fans by country code ('' for none), standing
-- redemptions (neither failed nor canceled) by reward id.

-- Existing rows, numbered in the order the lists showed them (oldest first).
UPDATE customers SET seq = ranked.n FROM (
  SELECT rowid AS r, row_number() OVER (PARTITION BY tenant_id ORDER BY created_at, id) AS n FROM customers
) AS ranked WHERE customers.rowid = ranked.r;
--> statement-breakpoint
UPDATE internal_transactions SET seq = ranked.n FROM (
  SELECT rowid AS r, row_number() OVER (PARTITION BY tenant_id ORDER BY created_at, id) AS n FROM internal_transactions
) AS ranked WHERE internal_transactions.rowid = ranked.r;
--> statement-breakpoint
UPDATE redemptions SET seq = ranked.n FROM (
  SELECT rowid AS r, row_number() OVER (PARTITION BY tenant_id ORDER BY created_at, id) AS n FROM redemptions
) AS ranked WHERE redemptions.rowid = ranked.r;
--> statement-breakpoint
-- One statement per bucket kind: D1 limits the terms of a compound SELECT.
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'customers', 'all', count(*) FROM customers GROUP BY tenant_id;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'customers', 'status=' || status, count(*) FROM customers GROUP BY tenant_id, status;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'active_fans', coalesce(country_code, ''), count(*) FROM customers
  WHERE status IN ('active', 'reinstated') GROUP BY tenant_id, country_code;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'internal_transactions', 'all', count(*) FROM internal_transactions GROUP BY tenant_id;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'internal_transactions', 'type=' || type, count(*) FROM internal_transactions GROUP BY tenant_id, type;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'internal_transactions', 'status=' || status, count(*) FROM internal_transactions GROUP BY tenant_id, status;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'internal_transactions', 'type=' || type || '&status=' || status, count(*) FROM internal_transactions
  GROUP BY tenant_id, type, status;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'redemptions', 'all', count(*) FROM redemptions GROUP BY tenant_id;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'redemptions', 'status=' || status, count(*) FROM redemptions GROUP BY tenant_id, status;
--> statement-breakpoint
INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
SELECT tenant_id, 'standing_redemptions', reward_id, count(*) FROM redemptions
  WHERE status NOT IN ('failed', 'canceled') GROUP BY tenant_id, reward_id;
--> statement-breakpoint
-- The next position of the tenant: max() on (tenant_id, seq) is one index seek.
CREATE TRIGGER `customers_list_position` AFTER INSERT ON `customers` WHEN NEW.seq IS NULL BEGIN
  UPDATE customers SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM customers WHERE tenant_id = NEW.tenant_id) WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `internal_transactions_list_position` AFTER INSERT ON `internal_transactions` WHEN NEW.seq IS NULL BEGIN
  UPDATE internal_transactions SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM internal_transactions WHERE tenant_id = NEW.tenant_id)
  WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `redemptions_list_position` AFTER INSERT ON `redemptions` WHEN NEW.seq IS NULL BEGIN
  UPDATE redemptions SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM redemptions WHERE tenant_id = NEW.tenant_id) WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_counted_in` AFTER INSERT ON `customers` BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  VALUES (NEW.tenant_id, 'customers', 'all', 1), (NEW.tenant_id, 'customers', 'status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT NEW.tenant_id, 'active_fans', coalesce(NEW.country_code, ''), 1 WHERE NEW.status IN ('active', 'reinstated')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_counted_on_update` AFTER UPDATE OF status, country_code ON `customers`
WHEN OLD.status IS NOT NEW.status OR OLD.country_code IS NOT NEW.country_code BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  VALUES (NEW.tenant_id, 'customers', 'status=' || OLD.status, -1), (NEW.tenant_id, 'customers', 'status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT OLD.tenant_id, 'active_fans', coalesce(OLD.country_code, ''), -1 WHERE OLD.status IN ('active', 'reinstated')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT NEW.tenant_id, 'active_fans', coalesce(NEW.country_code, ''), 1 WHERE NEW.status IN ('active', 'reinstated')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
CREATE TRIGGER `internal_transactions_counted_in` AFTER INSERT ON `internal_transactions` BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value) VALUES
    (NEW.tenant_id, 'internal_transactions', 'all', 1),
    (NEW.tenant_id, 'internal_transactions', 'type=' || NEW.type, 1),
    (NEW.tenant_id, 'internal_transactions', 'status=' || NEW.status, 1),
    (NEW.tenant_id, 'internal_transactions', 'type=' || NEW.type || '&status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
CREATE TRIGGER `internal_transactions_counted_on_update` AFTER UPDATE OF status ON `internal_transactions`
WHEN OLD.status IS NOT NEW.status BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value) VALUES
    (NEW.tenant_id, 'internal_transactions', 'status=' || OLD.status, -1),
    (NEW.tenant_id, 'internal_transactions', 'status=' || NEW.status, 1),
    (NEW.tenant_id, 'internal_transactions', 'type=' || OLD.type || '&status=' || OLD.status, -1),
    (NEW.tenant_id, 'internal_transactions', 'type=' || NEW.type || '&status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
CREATE TRIGGER `redemptions_counted_in` AFTER INSERT ON `redemptions` BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  VALUES (NEW.tenant_id, 'redemptions', 'all', 1), (NEW.tenant_id, 'redemptions', 'status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT NEW.tenant_id, 'standing_redemptions', NEW.reward_id, 1 WHERE NEW.status NOT IN ('failed', 'canceled')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
CREATE TRIGGER `redemptions_counted_on_update` AFTER UPDATE OF status ON `redemptions` WHEN OLD.status IS NOT NEW.status BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  VALUES (NEW.tenant_id, 'redemptions', 'status=' || OLD.status, -1), (NEW.tenant_id, 'redemptions', 'status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT OLD.tenant_id, 'standing_redemptions', OLD.reward_id, -1 WHERE OLD.status NOT IN ('failed', 'canceled')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT NEW.tenant_id, 'standing_redemptions', NEW.reward_id, 1 WHERE NEW.status NOT IN ('failed', 'canceled')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
