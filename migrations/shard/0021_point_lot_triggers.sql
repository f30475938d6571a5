-- Every trigger and view, replaced by the current definitions in src/db/sql/*.sql (one file per
-- concern, each saying what rule it carries). Written by `npm run db:sql -- <name>`: never edit this
-- file; edit src/db/sql and run the script again (docs/ARCHITECTURE.md, "Rules in SQL").
-- Definitions only, no data: dropped and created in the one transaction of this migration, so no
-- write runs without them and every count, position and membership stays as it was.
DROP TRIGGER IF EXISTS `attribute_definitions_cohorts_on_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `attribute_definitions_cohorts_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `cohort_memberships_counted_in`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `cohort_memberships_counted_out`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `cohort_refresh`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `cohort_refresh_chunk`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `cohorts_compiled_on_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customer_attribute_values_cohorts_on_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customer_attribute_values_cohorts_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customer_attribute_values_cohorts_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customer_attribute_values_need_definition`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customer_refresh`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customers_cohorts_on_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customers_cohorts_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customers_cohorts_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customers_counted_in`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customers_counted_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `customers_list_position`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `earning_rules_version_on_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `earning_rules_version_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `earning_rules_version_on_settings`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `earning_rules_version_on_timezone`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `earning_rules_version_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `events_list_position`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `internal_transactions_counted_in`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `internal_transactions_counted_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `internal_transactions_list_position`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `onchain_assets_contract_claim_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `onchain_assets_contract_claim_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `onchain_assets_contract_owner_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `onchain_assets_contract_owner_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `onchain_operations_gas_budget`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_credit_completed`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_credit_failed`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_debit`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_debit_failed`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_give_back`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_refund_inserted`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_refund_settled`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `redemptions_counted_in`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `redemptions_counted_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `redemptions_list_position`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `tier_rules_cohorts_on_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `tier_rules_cohorts_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `tier_rules_cohorts_on_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_blockchain_transaction_inserted`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_blockchain_transaction_settled`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_customer_created`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_customer_status_changed`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_customer_tier_changed`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_events_fan_out`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_internal_transaction_inserted`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_internal_transaction_settled`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_redemption_inserted`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_redemption_settled`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_xp_expired`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_xp_expiring`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `xp_token_opening_on_activation`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `xp_token_opening_on_insert`;
--> statement-breakpoint
DROP VIEW IF EXISTS `cohort_matches`;
--> statement-breakpoint
DROP VIEW IF EXISTS `cohort_predicate_results`;
--> statement-breakpoint
DROP VIEW IF EXISTS `cohort_predicate_values`;
--> statement-breakpoint
DROP VIEW IF EXISTS `cohorts_matching_nobody`;
--> statement-breakpoint
DROP VIEW IF EXISTS `tier_placements`;
--> statement-breakpoint
-- src/db/sql/cohort-evaluation.sql
CREATE VIEW `cohorts_matching_nobody` AS
SELECT k.tenant_id, k.cohort_id FROM compiled_cohorts k
WHERE CASE k.operator
  WHEN 'and' THEN EXISTS (SELECT 1 FROM cohort_predicates p WHERE p.tenant_id = k.tenant_id AND p.cohort_id = k.cohort_id AND p.storage IS NULL)
  ELSE NOT EXISTS (SELECT 1 FROM cohort_predicates p WHERE p.tenant_id = k.tenant_id AND p.cohort_id = k.cohort_id AND p.storage IS NOT NULL)
END;
--> statement-breakpoint
-- src/db/sql/tier-placement.sql
CREATE VIEW `tier_placements` AS
SELECT t.tenant_id, t.id AS tier_id, t.tier_name, t.min_xp_threshold,
  (SELECT min(h.min_xp_threshold) FROM tier_rules h WHERE h.tenant_id = t.tenant_id AND h.min_xp_threshold > t.min_xp_threshold) AS below_lifetime_xp
FROM tier_rules t
WHERE NOT EXISTS (SELECT 1 FROM tier_rules o WHERE o.tenant_id = t.tenant_id AND o.min_xp_threshold = t.min_xp_threshold
  AND (o.created_at < t.created_at OR (o.created_at = t.created_at AND o.id < t.id)));
--> statement-breakpoint
-- src/db/sql/cohort-evaluation.sql
CREATE VIEW `cohort_predicate_values` AS
SELECT p.tenant_id, p.cohort_id, p.position, p.op, p.storage, p.operand_list, c.id AS customer_id,
  CASE p.subject
    WHEN 'attribute' THEN (
      SELECT CASE p.storage WHEN 'number' THEN v.value_number ELSE v.value_text END
      FROM customer_attribute_values v
      WHERE v.tenant_id = p.tenant_id AND v.user_id = c.id AND v.definition_id = p.definition_id)
    WHEN 'status' THEN c.status
    WHEN 'country' THEN c.country_code
    WHEN 'xp_balance' THEN c.xp_balance
    WHEN 'lifetime_xp' THEN c.lifetime_xp
    WHEN 'tier' THEN (
      SELECT t.tier_id FROM tier_placements t
      WHERE t.tenant_id = c.tenant_id AND t.min_xp_threshold <= c.lifetime_xp
        AND (t.below_lifetime_xp IS NULL OR c.lifetime_xp < t.below_lifetime_xp))
  END AS actual,
  CASE p.storage WHEN 'number' THEN p.operand_number ELSE p.operand_text END AS operand
FROM cohort_predicates p JOIN customers c ON c.tenant_id = p.tenant_id;
--> statement-breakpoint
-- src/db/sql/cohort-evaluation.sql
CREATE VIEW `cohort_predicate_results` AS
SELECT tenant_id, cohort_id, position, customer_id, coalesce(CASE
    WHEN storage IS NULL THEN 0
    WHEN op = 'exists' THEN actual IS NOT NULL
    WHEN op = 'not_exists' THEN actual IS NULL
    WHEN op = 'eq' THEN actual = operand
    WHEN op = 'neq' THEN actual <> operand
    WHEN op = 'gt' THEN actual > operand
    WHEN op = 'gte' THEN actual >= operand
    WHEN op = 'lt' THEN actual < operand
    WHEN op = 'lte' THEN actual <= operand
    -- A string list holds one element equal to the operand; instr, not LIKE: `%` and `_` are plain.
    WHEN op = 'contains' AND storage = 'list' THEN EXISTS (SELECT 1 FROM json_each(actual) e WHERE e.value = operand)
    WHEN op = 'contains' THEN instr(actual, operand) > 0
    WHEN op = 'in' THEN actual IN (SELECT e.value FROM json_each(operand_list) e)
  END, 0) AS matched
FROM cohort_predicate_values;
--> statement-breakpoint
-- src/db/sql/cohort-evaluation.sql
CREATE VIEW `cohort_matches` AS
SELECT k.tenant_id, k.cohort_id, c.id AS customer_id, c.created_at AS customer_created_at
FROM compiled_cohorts k JOIN customers c ON c.tenant_id = k.tenant_id
WHERE CASE k.operator
  WHEN 'and' THEN NOT EXISTS (
    SELECT 1 FROM cohort_predicate_results r
    WHERE r.tenant_id = k.tenant_id AND r.cohort_id = k.cohort_id AND r.customer_id = c.id AND r.matched = 0)
  ELSE EXISTS (
    SELECT 1 FROM cohort_predicate_results r
    WHERE r.tenant_id = k.tenant_id AND r.cohort_id = k.cohort_id AND r.customer_id = c.id AND r.matched = 1)
END;
--> statement-breakpoint
-- src/db/sql/attribute-values.sql
CREATE TRIGGER `customer_attribute_values_need_definition` BEFORE INSERT ON `customer_attribute_values`
WHEN NOT EXISTS (SELECT 1 FROM attribute_definitions d WHERE d.tenant_id = NEW.tenant_id AND d.id = NEW.definition_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute_definition_missing');
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `cohort_memberships_counted_in` AFTER INSERT ON `cohort_memberships` BEGIN
  UPDATE compiled_cohorts SET member_count = member_count + 1 WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `cohort_memberships_counted_out` AFTER DELETE ON `cohort_memberships` BEGIN
  UPDATE compiled_cohorts SET member_count = member_count - 1 WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.cohort_id;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `customer_refresh` AFTER INSERT ON `customer_refreshes` BEGIN
  DELETE FROM cohort_memberships
  WHERE tenant_id = NEW.tenant_id AND customer_id = NEW.customer_id
    AND cohort_id IN (SELECT j.value FROM json_each(NEW.cohort_ids) j)
    AND NOT EXISTS (SELECT 1 FROM cohort_matches m WHERE m.tenant_id = NEW.tenant_id AND m.cohort_id = cohort_memberships.cohort_id AND m.customer_id = NEW.customer_id);
  INSERT INTO cohort_memberships (tenant_id, cohort_id, customer_id, customer_created_at)
  SELECT c.tenant_id, j.value, c.id, c.created_at FROM json_each(NEW.cohort_ids) j JOIN customers c ON c.tenant_id = NEW.tenant_id AND c.id = NEW.customer_id
  WHERE NOT EXISTS (SELECT 1 FROM cohort_memberships x WHERE x.tenant_id = NEW.tenant_id AND x.cohort_id = j.value AND x.customer_id = c.id)
    AND EXISTS (SELECT 1 FROM cohort_matches m WHERE m.tenant_id = NEW.tenant_id AND m.cohort_id = j.value AND m.customer_id = c.id);
  DELETE FROM customer_refreshes WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `customers_cohorts_on_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.id, json_group_array(k.cohort_id) FROM compiled_cohorts k WHERE k.tenant_id = NEW.tenant_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `customers_cohorts_on_update` AFTER UPDATE OF xp_balance, lifetime_xp, status, country_code ON `customers` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.subject IN (
    SELECT 'xp_balance' WHERE OLD.xp_balance IS NOT NEW.xp_balance
    UNION ALL SELECT 'lifetime_xp' WHERE OLD.lifetime_xp IS NOT NEW.lifetime_xp
    UNION ALL SELECT 'tier' WHERE OLD.lifetime_xp IS NOT NEW.lifetime_xp
    UNION ALL SELECT 'status' WHERE OLD.status IS NOT NEW.status
    UNION ALL SELECT 'country' WHERE OLD.country_code IS NOT NEW.country_code)
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `customers_cohorts_on_delete` AFTER DELETE ON `customers` BEGIN
  DELETE FROM cohort_memberships WHERE tenant_id = OLD.tenant_id AND customer_id = OLD.id;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `customer_attribute_values_cohorts_on_insert` AFTER INSERT ON `customer_attribute_values` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.user_id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.definition_id = NEW.definition_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `customer_attribute_values_cohorts_on_update` AFTER UPDATE OF value_text, value_number ON `customer_attribute_values`
WHEN OLD.value_text IS NOT NEW.value_text OR OLD.value_number IS NOT NEW.value_number
BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.user_id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.definition_id = NEW.definition_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `customer_attribute_values_cohorts_on_delete` AFTER DELETE ON `customer_attribute_values` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT OLD.tenant_id, OLD.user_id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = OLD.tenant_id AND p.definition_id = OLD.definition_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `attribute_definitions_cohorts_on_insert` AFTER INSERT ON `attribute_definitions` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates)
  SELECT NEW.tenant_id, p.cohort_id,
    CASE WHEN max(p.op = 'not_exists' AND json_type(p.forms, '$.' || NEW.type) IS NOT NULL) THEN 'everyone' ELSE 'none' END
  FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.subject = 'attribute' AND p.attribute_key = NEW.key
  GROUP BY p.cohort_id;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `attribute_definitions_cohorts_on_delete` AFTER DELETE ON `attribute_definitions` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates)
  SELECT DISTINCT OLD.tenant_id, p.cohort_id, 'members' FROM cohort_predicates p
  WHERE p.tenant_id = OLD.tenant_id AND p.subject = 'attribute' AND p.attribute_key = OLD.key;
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `tier_rules_cohorts_on_insert` AFTER INSERT ON `tier_rules` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates, from_lifetime_xp, below_lifetime_xp)
  SELECT DISTINCT p.tenant_id, p.cohort_id, 'everyone', NEW.min_xp_threshold,
    (SELECT min(t.min_xp_threshold) FROM tier_rules t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold > NEW.min_xp_threshold)
  FROM cohort_predicates p WHERE p.tenant_id = NEW.tenant_id AND p.subject = 'tier';
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `tier_rules_cohorts_on_update` AFTER UPDATE OF min_xp_threshold ON `tier_rules`
WHEN OLD.min_xp_threshold IS NOT NEW.min_xp_threshold
BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates, from_lifetime_xp, below_lifetime_xp)
  SELECT DISTINCT p.tenant_id, p.cohort_id, 'everyone', min(OLD.min_xp_threshold, NEW.min_xp_threshold),
    (SELECT min(t.min_xp_threshold) FROM tier_rules t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold > max(OLD.min_xp_threshold, NEW.min_xp_threshold))
  FROM cohort_predicates p WHERE p.tenant_id = NEW.tenant_id AND p.subject = 'tier';
END;
--> statement-breakpoint
-- src/db/sql/cohort-membership.sql
CREATE TRIGGER `tier_rules_cohorts_on_delete` AFTER DELETE ON `tier_rules` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates, from_lifetime_xp, below_lifetime_xp)
  SELECT DISTINCT p.tenant_id, p.cohort_id, 'everyone', OLD.min_xp_threshold,
    (SELECT min(t.min_xp_threshold) FROM tier_rules t WHERE t.tenant_id = OLD.tenant_id AND t.min_xp_threshold > OLD.min_xp_threshold)
  FROM cohort_predicates p WHERE p.tenant_id = OLD.tenant_id AND p.subject = 'tier';
END;
--> statement-breakpoint
-- src/db/sql/cohort-recomputes.sql
CREATE TRIGGER `cohort_refresh` AFTER INSERT ON `cohort_refreshes` WHEN NEW.to_seq IS NULL BEGIN
  UPDATE cohort_predicates SET (definition_id, storage, operand_text, operand_number, operand_list) = (
    SELECT d.id, json_extract(cohort_predicates.forms, '$.' || d.type || '.storage'), json_extract(cohort_predicates.forms, '$.' || d.type || '.text'),
      json_extract(cohort_predicates.forms, '$.' || d.type || '.number'), json_extract(cohort_predicates.forms, '$.' || d.type || '.list')
    FROM attribute_definitions d
    WHERE d.tenant_id = cohort_predicates.tenant_id AND d.key = cohort_predicates.attribute_key AND json_type(cohort_predicates.forms, '$.' || d.type) IS NOT NULL)
  -- `+subject`: the cohort's primary key, not the tenant-wide subject index (every predicate of the tenant).
  WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id AND +subject = 'attribute';
  UPDATE compiled_cohorts SET dead_keys = (
    SELECT json_group_array(attribute_key) FROM (
      SELECT p.attribute_key, min(p.position) AS first_position FROM cohort_predicates p
      WHERE p.tenant_id = NEW.tenant_id AND p.cohort_id = NEW.cohort_id AND +p.subject = 'attribute'
        AND NOT EXISTS (SELECT 1 FROM attribute_definitions d WHERE d.tenant_id = p.tenant_id AND d.key = p.attribute_key)
      GROUP BY p.attribute_key ORDER BY first_position))
  WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id;
  INSERT INTO cohort_recomputes (tenant_id, cohort_id, candidates, from_lifetime_xp, below_lifetime_xp, next_seq, until_seq)
  SELECT NEW.tenant_id, NEW.cohort_id, NEW.candidates, NEW.from_lifetime_xp, NEW.below_lifetime_xp, 1,
    coalesce((SELECT max(c.seq) FROM customers c WHERE c.tenant_id = NEW.tenant_id), 0)
  WHERE NEW.candidates = 'everyone'
    OR (NEW.candidates = 'members' AND EXISTS (SELECT 1 FROM cohort_memberships x WHERE x.tenant_id = NEW.tenant_id AND x.cohort_id = NEW.cohort_id))
  ON CONFLICT (tenant_id, cohort_id) DO UPDATE SET
    candidates = CASE WHEN 'everyone' IN (cohort_recomputes.candidates, excluded.candidates) THEN 'everyone' ELSE 'members' END,
    from_lifetime_xp = CASE WHEN cohort_recomputes.from_lifetime_xp IS NULL OR excluded.from_lifetime_xp IS NULL THEN NULL
      ELSE min(cohort_recomputes.from_lifetime_xp, excluded.from_lifetime_xp) END,
    below_lifetime_xp = CASE WHEN cohort_recomputes.from_lifetime_xp IS NULL OR excluded.from_lifetime_xp IS NULL
        OR cohort_recomputes.below_lifetime_xp IS NULL OR excluded.below_lifetime_xp IS NULL THEN NULL
      ELSE max(cohort_recomputes.below_lifetime_xp, excluded.below_lifetime_xp) END,
    next_seq = 1,
    until_seq = excluded.until_seq;
  DELETE FROM cohort_recomputes WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id AND next_seq > until_seq;
  DELETE FROM cohort_refreshes WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/cohort-recomputes.sql
CREATE TRIGGER `cohort_refresh_chunk` AFTER INSERT ON `cohort_refreshes` WHEN NEW.to_seq IS NOT NULL BEGIN
  DELETE FROM cohort_memberships
  WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id
    AND customer_id IN (
      SELECT c.id FROM customers c WHERE c.tenant_id = NEW.tenant_id AND c.seq BETWEEN NEW.from_seq AND NEW.to_seq
        AND (NEW.from_lifetime_xp IS NULL OR c.lifetime_xp >= NEW.from_lifetime_xp)
        AND (NEW.below_lifetime_xp IS NULL OR c.lifetime_xp < NEW.below_lifetime_xp))
    AND (EXISTS (SELECT 1 FROM cohorts_matching_nobody n WHERE n.tenant_id = NEW.tenant_id AND n.cohort_id = NEW.cohort_id)
      OR NOT EXISTS (SELECT 1 FROM cohort_matches m WHERE m.tenant_id = NEW.tenant_id AND m.cohort_id = NEW.cohort_id AND m.customer_id = cohort_memberships.customer_id));
  INSERT INTO cohort_memberships (tenant_id, cohort_id, customer_id, customer_created_at)
  SELECT c.tenant_id, NEW.cohort_id, c.id, c.created_at FROM customers c
  WHERE c.tenant_id = NEW.tenant_id AND NEW.candidates = 'everyone' AND c.seq BETWEEN NEW.from_seq AND NEW.to_seq
    AND (NEW.from_lifetime_xp IS NULL OR c.lifetime_xp >= NEW.from_lifetime_xp)
    AND (NEW.below_lifetime_xp IS NULL OR c.lifetime_xp < NEW.below_lifetime_xp)
    AND NOT EXISTS (SELECT 1 FROM cohorts_matching_nobody n WHERE n.tenant_id = NEW.tenant_id AND n.cohort_id = NEW.cohort_id)
    AND NOT EXISTS (SELECT 1 FROM cohort_memberships x WHERE x.tenant_id = NEW.tenant_id AND x.cohort_id = NEW.cohort_id AND x.customer_id = c.id)
    AND EXISTS (SELECT 1 FROM cohort_matches m WHERE m.tenant_id = NEW.tenant_id AND m.cohort_id = NEW.cohort_id AND m.customer_id = c.id);
  UPDATE cohort_recomputes SET next_seq = NEW.to_seq + 1
  WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id AND next_seq = NEW.from_seq;
  DELETE FROM cohort_recomputes WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id AND next_seq > until_seq;
  DELETE FROM cohort_refreshes WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/cohort-recomputes.sql
CREATE TRIGGER `cohorts_compiled_on_delete` AFTER DELETE ON `cohorts` BEGIN
  DELETE FROM compiled_cohorts WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.id;
  DELETE FROM cohort_predicates WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.id;
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates) VALUES (OLD.tenant_id, OLD.id, 'members');
END;
--> statement-breakpoint
-- src/db/sql/earning-rules.sql
CREATE TRIGGER `earning_rules_version_on_insert` AFTER INSERT ON `earning_rules` BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
-- src/db/sql/earning-rules.sql
CREATE TRIGGER `earning_rules_version_on_delete` AFTER DELETE ON `earning_rules` BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (OLD.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
  DELETE FROM rule_period_counters WHERE rule_id = OLD.id;
END;
--> statement-breakpoint
-- src/db/sql/earning-rules.sql
CREATE TRIGGER `earning_rules_version_on_update`
AFTER UPDATE OF name, event_type, status, priority, stackable, conditions, effect, multipliers, limits, total_xp_budget, starts_at, ends_at ON `earning_rules`
BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
-- src/db/sql/earning-rules.sql
CREATE TRIGGER `earning_rules_version_on_settings` AFTER INSERT ON `program_settings` BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
-- src/db/sql/earning-rules.sql
CREATE TRIGGER `earning_rules_version_on_timezone`
AFTER UPDATE OF timezone, points_pending_period, points_validity, points_expiry_rounding, points_expiry_notice ON `program_settings`
WHEN OLD.timezone IS NOT NEW.timezone OR OLD.points_pending_period IS NOT NEW.points_pending_period OR OLD.points_validity IS NOT NEW.points_validity
  OR OLD.points_expiry_rounding IS NOT NEW.points_expiry_rounding OR OLD.points_expiry_notice IS NOT NEW.points_expiry_notice BEGIN
  INSERT INTO earning_rule_versions (tenant_id, version) VALUES (NEW.tenant_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
-- src/db/sql/earning-rules.sql
CREATE TRIGGER `events_list_position` AFTER INSERT ON `events` WHEN NEW.seq IS NULL BEGIN
  UPDATE events SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE tenant_id = NEW.tenant_id) WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/gas-budget.sql
CREATE TRIGGER `onchain_operations_gas_budget` BEFORE INSERT ON `onchain_operations`
WHEN EXISTS (SELECT 1 FROM tenant_gas_usage g
    WHERE g.tenant_id = NEW.tenant_id AND g.day = strftime('%Y-%m-%d', 'now') AND g.exhausted = 1)
BEGIN
  SELECT RAISE(ABORT, 'onchain_gas_budget_exhausted');
END;
--> statement-breakpoint
-- src/db/sql/list-positions-and-counts.sql
CREATE TRIGGER `customers_list_position` AFTER INSERT ON `customers` WHEN NEW.seq IS NULL BEGIN
  UPDATE customers SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM customers WHERE tenant_id = NEW.tenant_id) WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/list-positions-and-counts.sql
CREATE TRIGGER `internal_transactions_list_position` AFTER INSERT ON `internal_transactions` WHEN NEW.seq IS NULL BEGIN
  UPDATE internal_transactions SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM internal_transactions WHERE tenant_id = NEW.tenant_id)
  WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/list-positions-and-counts.sql
CREATE TRIGGER `redemptions_list_position` AFTER INSERT ON `redemptions` WHEN NEW.seq IS NULL BEGIN
  UPDATE redemptions SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM redemptions WHERE tenant_id = NEW.tenant_id) WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/list-positions-and-counts.sql
CREATE TRIGGER `customers_counted_in` AFTER INSERT ON `customers` BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  VALUES (NEW.tenant_id, 'customers', 'all', 1), (NEW.tenant_id, 'customers', 'status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT NEW.tenant_id, 'active_fans', coalesce(NEW.country_code, ''), 1 WHERE NEW.status IN ('active', 'reinstated')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
-- src/db/sql/list-positions-and-counts.sql
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
-- src/db/sql/list-positions-and-counts.sql
CREATE TRIGGER `internal_transactions_counted_in` AFTER INSERT ON `internal_transactions` BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value) VALUES
    (NEW.tenant_id, 'internal_transactions', 'all', 1),
    (NEW.tenant_id, 'internal_transactions', 'type=' || NEW.type, 1),
    (NEW.tenant_id, 'internal_transactions', 'status=' || NEW.status, 1),
    (NEW.tenant_id, 'internal_transactions', 'type=' || NEW.type || '&status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
-- src/db/sql/list-positions-and-counts.sql
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
-- src/db/sql/list-positions-and-counts.sql
CREATE TRIGGER `redemptions_counted_in` AFTER INSERT ON `redemptions` BEGIN
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  VALUES (NEW.tenant_id, 'redemptions', 'all', 1), (NEW.tenant_id, 'redemptions', 'status=' || NEW.status, 1)
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
  INSERT INTO tenant_counts (tenant_id, subject, bucket, value)
  SELECT NEW.tenant_id, 'standing_redemptions', NEW.reward_id, 1 WHERE NEW.status NOT IN ('failed', 'canceled')
  ON CONFLICT DO UPDATE SET value = value + excluded.value;
END;
--> statement-breakpoint
-- src/db/sql/list-positions-and-counts.sql
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
--> statement-breakpoint
-- src/db/sql/onchain-ownership.sql
CREATE TRIGGER `onchain_assets_contract_owner_on_insert` BEFORE INSERT ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL AND EXISTS (SELECT 1 FROM onchain_contracts c
    WHERE c.chain_id = NEW.chain_id AND c.address = NEW.asset_address AND c.tenant_id <> NEW.tenant_id)
BEGIN
  SELECT RAISE(ABORT, 'onchain_contract_taken');
END;
--> statement-breakpoint
-- src/db/sql/onchain-ownership.sql
CREATE TRIGGER `onchain_assets_contract_owner_on_update` BEFORE UPDATE OF asset_address, chain_id ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL AND EXISTS (SELECT 1 FROM onchain_contracts c
    WHERE c.chain_id = NEW.chain_id AND c.address = NEW.asset_address AND c.tenant_id <> NEW.tenant_id)
BEGIN
  SELECT RAISE(ABORT, 'onchain_contract_taken');
END;
--> statement-breakpoint
-- src/db/sql/onchain-ownership.sql
CREATE TRIGGER `onchain_assets_contract_claim_on_insert` AFTER INSERT ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO onchain_contracts (chain_id, address, tenant_id, origin) VALUES (NEW.chain_id, NEW.asset_address, NEW.tenant_id, 'registered');
END;
--> statement-breakpoint
-- src/db/sql/onchain-ownership.sql
CREATE TRIGGER `onchain_assets_contract_claim_on_update` AFTER UPDATE OF asset_address ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO onchain_contracts (chain_id, address, tenant_id, origin) VALUES (NEW.chain_id, NEW.asset_address, NEW.tenant_id, 'deployed');
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `point_lots_debit` AFTER INSERT ON `internal_transactions`
WHEN NEW.amount < 0 AND NEW.type <> 'xp_expire' AND NEW.status <> 'pending' AND NEW.user_id IS NOT NULL
BEGIN
  INSERT INTO lot_debits (debit_transaction_id, lot_id, amount)
  SELECT NEW.id, o.id, min(o.remaining, -NEW.amount - o.before) FROM (
    SELECT l.id, l.remaining, coalesce(sum(l.remaining) OVER (
        ORDER BY (NEW.type = 'xp_reversal' AND l.internal_transaction_id IS json_extract(NEW.metadata, '$.reversed_transaction_id')) DESC,
          l.expires_at IS NULL, l.expires_at, l.created_at, l.id
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
    FROM point_lots l WHERE l.user_id = NEW.user_id AND l.status = 'active' AND l.tenant_id = NEW.tenant_id) o
  WHERE o.before < -NEW.amount;
  UPDATE point_lots SET remaining = point_lots.remaining - d.amount,
    status = CASE WHEN point_lots.remaining = d.amount THEN 'spent' ELSE 'active' END, updated_at = NEW.created_at
  FROM (SELECT lot_id, amount FROM lot_debits WHERE debit_transaction_id = NEW.id) d WHERE point_lots.id = d.lot_id;
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `point_lots_give_back` AFTER INSERT ON `lot_givebacks` BEGIN
  UPDATE point_lots SET remaining = point_lots.remaining + d.amount, status = 'active', updated_at = NEW.at
  FROM (SELECT lot_id, amount FROM lot_debits WHERE debit_transaction_id = NEW.debit_transaction_id) d WHERE point_lots.id = d.lot_id;
  INSERT INTO point_lots (id, tenant_id, user_id, internal_transaction_id, amount, remaining, reversed, status, available_at, expires_at, activated_at, created_at, updated_at)
  SELECT 'lot_' || lower(hex(randomblob(16))), NEW.tenant_id, NEW.user_id, NULL, r.rest, r.rest, 0, 'active', NEW.at, NULL, NEW.at, NEW.at, NEW.at
  FROM (SELECT NEW.amount - coalesce((SELECT sum(amount) FROM lot_debits WHERE debit_transaction_id = NEW.debit_transaction_id), 0) AS rest) r
  WHERE r.rest > 0 AND NEW.rest_as_lot = 1;
  DELETE FROM lot_givebacks WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `point_lots_debit_failed` AFTER UPDATE OF status ON `internal_transactions`
WHEN NEW.status = 'failed' AND OLD.status <> 'failed' AND NEW.amount < 0
BEGIN
  INSERT INTO lot_givebacks (debit_transaction_id, tenant_id, user_id, amount, at, rest_as_lot)
  VALUES (NEW.id, NEW.tenant_id, NEW.user_id, -NEW.amount, NEW.updated_at, NEW.type NOT IN ('xp_reversal', 'xp_expire'));
  -- A reversal whose burn failed did not happen: the credit may be reversed again by what it asked.
  -- (A pending one fails only with its credit, which stays reversed whole.)
  UPDATE point_lots SET reversed = max(0, reversed - coalesce(json_extract(NEW.metadata, '$.requested'), -NEW.amount)), updated_at = NEW.updated_at
  WHERE NEW.type = 'xp_reversal' AND NEW.onchain_asset_id IS NOT NULL AND tenant_id = NEW.tenant_id AND internal_transaction_id = json_extract(NEW.metadata, '$.reversed_transaction_id');
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `point_lots_refund_inserted` AFTER INSERT ON `internal_transactions`
WHEN NEW.amount > 0 AND NEW.type = 'xp_redeem' AND NEW.status = 'completed'
BEGIN
  INSERT INTO lot_givebacks (debit_transaction_id, tenant_id, user_id, amount, at, rest_as_lot)
  SELECT t.id, NEW.tenant_id, NEW.user_id, NEW.amount, NEW.updated_at, 1 FROM internal_transactions t
  WHERE t.tenant_id = NEW.tenant_id AND t.redemption_id = NEW.redemption_id AND t.type = 'xp_redeem' AND t.amount < 0;
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `point_lots_refund_settled` AFTER UPDATE OF status ON `internal_transactions`
WHEN NEW.status = 'completed' AND OLD.status <> 'completed' AND NEW.amount > 0 AND NEW.type = 'xp_redeem'
BEGIN
  INSERT INTO lot_givebacks (debit_transaction_id, tenant_id, user_id, amount, at, rest_as_lot)
  SELECT t.id, NEW.tenant_id, NEW.user_id, NEW.amount, NEW.updated_at, 1 FROM internal_transactions t
  WHERE t.tenant_id = NEW.tenant_id AND t.redemption_id = NEW.redemption_id AND t.type = 'xp_redeem' AND t.amount < 0;
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `point_lots_credit_completed` AFTER UPDATE OF status ON `internal_transactions`
WHEN NEW.status = 'completed' AND OLD.status <> 'completed' AND NEW.amount > 0 AND NEW.type <> 'xp_redeem'
BEGIN
  UPDATE point_lots SET status = 'active', updated_at = NEW.updated_at
  WHERE internal_transaction_id = NEW.id AND status = 'pending' AND remaining > 0;
  UPDATE point_lots SET status = 'spent', updated_at = NEW.updated_at
  WHERE internal_transaction_id = NEW.id AND status = 'pending' AND remaining = 0;
  UPDATE internal_transactions SET status = 'completed', updated_at = NEW.updated_at
  WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id AND type = 'xp_reversal' AND status = 'pending'
    AND json_extract(metadata, '$.reversed_transaction_id') = NEW.id;
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `point_lots_credit_failed` AFTER UPDATE OF status ON `internal_transactions`
WHEN NEW.status = 'failed' AND OLD.status <> 'failed' AND NEW.amount > 0 AND NEW.type <> 'xp_redeem'
BEGIN
  UPDATE point_lots SET status = 'reversed', remaining = 0, activated_at = coalesce(activated_at, NEW.updated_at), updated_at = NEW.updated_at
  WHERE internal_transaction_id = NEW.id AND status = 'pending';
  UPDATE internal_transactions SET status = 'failed', updated_at = NEW.updated_at
  WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id AND type = 'xp_reversal' AND status = 'pending'
    AND json_extract(metadata, '$.reversed_transaction_id') = NEW.id;
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `webhook_xp_expiring` AFTER UPDATE OF notice_sent_at ON `point_lots`
WHEN OLD.notice_sent_at IS NULL AND NEW.notice_sent_at IS NOT NULL AND NEW.status = 'active' AND NEW.remaining > 0
  AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.expiring')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.expiring', NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/point-lots.sql
CREATE TRIGGER `webhook_xp_expired` AFTER INSERT ON `internal_transactions`
WHEN NEW.type = 'xp_expire' AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.expired')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.expired', NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_customer_created` AFTER INSERT ON `customers`
WHEN EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.created')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.created', NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_customer_status_changed` AFTER UPDATE OF status ON `customers`
WHEN OLD.status IS NOT NEW.status AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.status_changed')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.status_changed', NEW.id, json_object('status', OLD.status));
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_customer_tier_changed` AFTER UPDATE OF lifetime_xp ON `customers`
WHEN OLD.lifetime_xp IS NOT NEW.lifetime_xp AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.tier_changed')
  AND (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold <= OLD.lifetime_xp
      AND (t.below_lifetime_xp IS NULL OR OLD.lifetime_xp < t.below_lifetime_xp))
    IS NOT (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold <= NEW.lifetime_xp
      AND (t.below_lifetime_xp IS NULL OR NEW.lifetime_xp < t.below_lifetime_xp))
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.tier_changed', NEW.id, json_object('tier', json(coalesce(
    (SELECT json_object('id', t.tier_id, 'tier_name', t.tier_name) FROM tier_placements t WHERE t.tenant_id = NEW.tenant_id
      AND t.min_xp_threshold <= OLD.lifetime_xp AND (t.below_lifetime_xp IS NULL OR OLD.lifetime_xp < t.below_lifetime_xp)),
    'null'))));
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_internal_transaction_inserted` AFTER INSERT ON `internal_transactions`
WHEN NEW.status IN ('completed', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.transaction.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.transaction.' || NEW.status, NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_internal_transaction_settled` AFTER UPDATE OF status ON `internal_transactions`
WHEN OLD.status IS NOT NEW.status AND NEW.status IN ('completed', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.transaction.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.transaction.' || NEW.status, NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_redemption_inserted` AFTER INSERT ON `redemptions`
WHEN NEW.status IN ('completed', 'failed', 'canceled') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'redemption.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'redemption.' || NEW.status, NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_redemption_settled` AFTER UPDATE OF status ON `redemptions`
WHEN OLD.status IS NOT NEW.status AND NEW.status IN ('completed', 'failed', 'canceled') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'redemption.' || NEW.status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'redemption.' || NEW.status, NEW.id, json_object('status', OLD.status));
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_blockchain_transaction_inserted` AFTER INSERT ON `blockchain_transactions`
WHEN NEW.txn_status IN ('succeeded', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'onchain.transaction.' || NEW.txn_status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'onchain.transaction.' || NEW.txn_status, NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_blockchain_transaction_settled` AFTER UPDATE OF txn_status ON `blockchain_transactions`
WHEN OLD.txn_status IS NOT NEW.txn_status AND NEW.txn_status IN ('succeeded', 'failed') AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'onchain.transaction.' || NEW.txn_status)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'onchain.transaction.' || NEW.txn_status, NEW.id, NULL);
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_events_fan_out` AFTER INSERT ON `webhook_events` BEGIN
  INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, next_attempt_at, created_at, updated_at)
  SELECT 'whd_' || lower(hex(randomblob(16))), e.tenant_id, e.id, NEW.id, NEW.type, NEW.created_at, NEW.created_at, NEW.created_at
  FROM webhook_endpoints e
  WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND EXISTS (SELECT 1 FROM json_each(e.event_types) j WHERE j.value = NEW.type);
END;
--> statement-breakpoint
-- src/db/sql/xp-token-openings.sql
CREATE TRIGGER `xp_token_opening_on_insert` AFTER INSERT ON `onchain_assets`
WHEN NEW.key = 'xp' AND NEW.status = 'active'
BEGIN
  UPDATE onchain_assets SET opening_epoch = opening_epoch + 1, opening_cursor = 0, opening_completed_at = NULL WHERE id = NEW.id;
END;
--> statement-breakpoint
-- src/db/sql/xp-token-openings.sql
CREATE TRIGGER `xp_token_opening_on_activation` AFTER UPDATE OF status ON `onchain_assets`
WHEN NEW.key = 'xp' AND NEW.status = 'active' AND OLD.status IS NOT 'active'
BEGIN
  UPDATE onchain_assets SET opening_epoch = opening_epoch + 1, opening_cursor = 0, opening_completed_at = NULL WHERE id = NEW.id;
END;
