-- The program engine's rules in SQL (docs/RULES.md). Each isolate caches a tenant's earning rules
-- with the version they were read at (services/rule-cache.ts); every event's batch is led by a guard
-- that refuses a stale version (data/earning-evaluation.ts). So every change the evaluation reads
-- from the cache bumps the version here, whatever code path makes it: a rule created, deleted or
-- redefined (its counters moving does not count), or the tenant's time zone (the periods of limits).

CREATE TRIGGER `earning_rules_version_on_insert` AFTER INSERT ON `earning_rules` BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
-- A deleted rule's per-customer counters go with it (its past effects stay, with its id and name).
CREATE TRIGGER `earning_rules_version_on_delete` AFTER DELETE ON `earning_rules` BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (OLD.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
  DELETE FROM rule_period_counters WHERE rule_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `earning_rules_version_on_update`
AFTER UPDATE OF name, event_type, status, priority, stackable, conditions, effect, multipliers, limits, total_xp_budget, starts_at, ends_at ON `earning_rules`
BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `earning_rules_version_on_settings` AFTER INSERT ON `program_settings` BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
-- The points settings are cached with the rules (data/program-cache.ts): every credit's lot times come from them.
CREATE TRIGGER `earning_rules_version_on_timezone`
AFTER UPDATE OF timezone, points_pending_period, points_validity, points_expiry_rounding, points_expiry_notice ON `program_settings`
WHEN OLD.timezone IS NOT NEW.timezone OR OLD.points_pending_period IS NOT NEW.points_pending_period OR OLD.points_validity IS NOT NEW.points_validity
  OR OLD.points_expiry_rounding IS NOT NEW.points_expiry_rounding OR OLD.points_expiry_notice IS NOT NEW.points_expiry_notice BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
-- Events are never deleted: a newest-first page is a range of positions, as for transactions.
CREATE TRIGGER `events_list_position` AFTER INSERT ON `events` WHEN NEW.seq IS NULL BEGIN
  UPDATE events SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE tenant_id = NEW.tenant_id) WHERE rowid = NEW.rowid;
END;
