-- Every trigger and view, replaced by the current definitions in src/db/sql/*.sql (one file per
-- concern, each saying what rule it carries). Written by `npm run db:sql -- <name>`: never edit this
-- file; edit src/db/sql and run the script again (docs/ARCHITECTURE.md, "Rules in SQL").
-- Definitions only, no data: dropped and created in the one transaction of this migration, so no
-- write runs without them and every count, position and membership stays as it was.
DROP TRIGGER IF EXISTS `attribute_definitions_cohorts_on_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `attribute_definitions_cohorts_on_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_api_keys_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_api_keys_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_api_keys_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_attribute_definitions_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_attribute_definitions_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_attribute_definitions_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_cohorts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_cohorts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_cohorts_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_customer_attribute_values_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_customer_attribute_values_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_customer_attribute_values_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_customers_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_customers_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_customers_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_earning_rules_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_earning_rules_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_earning_rules_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_export_jobs_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_export_jobs_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_export_jobs_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_import_jobs_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_import_jobs_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_import_jobs_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_internal_transactions_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_internal_transactions_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_internal_transactions_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_memberships_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_memberships_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_memberships_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_onchain_assets_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_onchain_assets_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_onchain_assets_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_program_settings_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_program_settings_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_program_settings_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_redemptions_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_redemptions_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_redemptions_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_rewards_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_rewards_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_rewards_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_tier_rules_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_tier_rules_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_tier_rules_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhook_deliveries_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhook_deliveries_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhook_deliveries_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhook_endpoints_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhook_endpoints_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhook_endpoints_update`;
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
DROP TRIGGER IF EXISTS `customers_tier_held_on_insert`;
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
DROP TRIGGER IF EXISTS `point_lots_tier_upgrade_on_activation`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `point_lots_tier_upgrade_on_insert`;
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
DROP TRIGGER IF EXISTS `webhook_customer_erased`;
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
DROP VIEW IF EXISTS `customer_tier_reviews`;
--> statement-breakpoint
DROP VIEW IF EXISTS `customer_tier_upgrades`;
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
    WHEN 'tier' THEN CASE WHEN c.tier_held THEN c.tier_id ELSE (
      SELECT t.tier_id FROM tier_placements t
      WHERE t.tenant_id = c.tenant_id AND t.min_xp_threshold <= c.lifetime_xp
        AND (t.below_lifetime_xp IS NULL OR c.lifetime_xp < t.below_lifetime_xp)) END
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
-- src/db/sql/tier-retention.sql
CREATE VIEW `customer_tier_upgrades` AS
SELECT u.lot_id, u.customer_id, u.tier_id,
  CASE WHEN (SELECT t.min_xp_threshold FROM tier_rules t WHERE t.id = u.tier_id) > 0 THEN
    (SELECT min(r.review_at) FROM tier_review_dates r WHERE r.tenant_id = u.tenant_id AND r.window_start >= u.at) END AS valid_until
FROM (SELECT l.id AS lot_id, c.id AS customer_id, c.tenant_id, l.updated_at AS at,
  (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = c.tenant_id
    AND t.min_xp_threshold > coalesce((SELECT h.min_xp_threshold FROM tier_rules h WHERE h.id = c.tier_id), -1)
    AND t.min_xp_threshold <= (SELECT coalesce(sum(e.amount - e.reversed), 0) FROM point_lots e
      WHERE e.tenant_id = c.tenant_id AND e.user_id = c.id AND e.internal_transaction_id IS NOT NULL
        AND e.status IN ('active', 'spent', 'expired') AND e.activated_at <= l.updated_at
        AND e.activated_at > strftime('%Y-%m-%dT%H:%M:%fZ', l.updated_at, '-' || s.tiers_period_months || ' months', 'floor',
          '-' || s.tiers_period_seconds || ' seconds'))
    ORDER BY t.min_xp_threshold DESC LIMIT 1) AS tier_id
  FROM point_lots l
  JOIN customers c ON c.id = l.user_id AND c.tenant_id = l.tenant_id AND c.tier_held = 1
  JOIN program_settings s ON s.tenant_id = l.tenant_id) u;
--> statement-breakpoint
-- src/db/sql/tier-retention.sql
CREATE VIEW `customer_tier_reviews` AS
SELECT v.customer_id, v.tenant_id, v.review_at, v.tier_after,
  CASE WHEN (SELECT t.min_xp_threshold FROM tier_rules t WHERE t.id = v.tier_after) > 0 THEN
    (SELECT min(r.review_at) FROM tier_review_dates r WHERE r.tenant_id = v.tenant_id AND r.window_start >= v.review_at) END AS valid_until
FROM (
  SELECT w.customer_id, w.tenant_id, w.review_at,
    CASE
      WHEN coalesce(w.earned_threshold, -1) > coalesce(w.held_threshold, -1) THEN w.earned_tier_id
      WHEN coalesce(w.earned_threshold, -1) = coalesce(w.held_threshold, -1) OR w.downgrade = 'none' THEN w.held_tier_id
      WHEN w.downgrade = 'one_step' THEN (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = w.tenant_id
        AND t.min_xp_threshold < w.held_threshold ORDER BY t.min_xp_threshold DESC LIMIT 1)
      ELSE w.earned_tier_id
    END AS tier_after
  FROM (
    SELECT u.*,
      (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = u.tenant_id AND t.min_xp_threshold <= u.earned
        ORDER BY t.min_xp_threshold DESC LIMIT 1) AS earned_tier_id,
      (SELECT t.min_xp_threshold FROM tier_placements t WHERE t.tenant_id = u.tenant_id AND t.min_xp_threshold <= u.earned
        ORDER BY t.min_xp_threshold DESC LIMIT 1) AS earned_threshold
    FROM (
      SELECT c.id AS customer_id, c.tenant_id, c.tier_valid_until AS review_at, c.tier_id AS held_tier_id, s.tiers_downgrade AS downgrade,
        (SELECT h.min_xp_threshold FROM tier_rules h WHERE h.id = c.tier_id) AS held_threshold,
        (SELECT coalesce(sum(e.amount - e.reversed), 0) FROM point_lots e
          WHERE e.tenant_id = c.tenant_id AND e.user_id = c.id AND e.internal_transaction_id IS NOT NULL
            AND e.status IN ('active', 'spent', 'expired') AND e.activated_at <= c.tier_valid_until
            AND e.activated_at > strftime('%Y-%m-%dT%H:%M:%fZ', c.tier_valid_until, '-' || s.tiers_period_months || ' months', 'floor',
              '-' || s.tiers_period_seconds || ' seconds')) AS earned
      FROM customers c JOIN program_settings s ON s.tenant_id = c.tenant_id
      WHERE c.tier_held = 1 AND c.tier_valid_until IS NOT NULL
    ) u
  ) w
) v;
--> statement-breakpoint
-- src/db/sql/attribute-values.sql
CREATE TRIGGER `customer_attribute_values_need_definition` BEFORE INSERT ON `customer_attribute_values`
WHEN NOT EXISTS (SELECT 1 FROM attribute_definitions d WHERE d.tenant_id = NEW.tenant_id AND d.id = NEW.definition_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute_definition_missing');
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_memberships_insert` AFTER INSERT ON `memberships`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',memberships,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'member', NEW.id,
    json_patch('{}', json_object(
      'account_id', json(iif(NEW.account_id IS NOT NULL, json_array(NULL, NEW.account_id), NULL)),
      'email', json(iif(NEW.email IS NOT NULL, json_array(NULL, NEW.email), NULL)),
      'role', json(iif(NEW.role IS NOT NULL, json_array(NULL, NEW.role), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',memberships,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_memberships_update` AFTER UPDATE ON `memberships`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',memberships,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'member', NEW.id,
    json_patch('{}', json_object(
      'account_id', json(iif(OLD.account_id IS NOT NEW.account_id, json_array(OLD.account_id, NEW.account_id), NULL)),
      'email', json(iif(OLD.email IS NOT NEW.email, json_array(OLD.email, NEW.email), NULL)),
      'role', json(iif(OLD.role IS NOT NEW.role, json_array(OLD.role, NEW.role), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',memberships,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_memberships_delete` AFTER DELETE ON `memberships`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',memberships,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'member', OLD.id,
    json_patch('{}', json_object(
      'account_id', json(iif(OLD.account_id IS NOT NULL, json_array(OLD.account_id, NULL), NULL)),
      'email', json(iif(OLD.email IS NOT NULL, json_array(OLD.email, NULL), NULL)),
      'role', json(iif(OLD.role IS NOT NULL, json_array(OLD.role, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',memberships,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_api_keys_insert` AFTER INSERT ON `api_keys`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',api_keys,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'api_key', NEW.id,
    json_patch('{}', json_object(
      'key_id', json(iif(NEW.key_id IS NOT NULL, json_array(NULL, NEW.key_id), NULL)),
      'name', json(iif(NEW.name IS NOT NULL, json_array(NULL, NEW.name), NULL)),
      'label', json(iif(NEW.label IS NOT NULL, json_array(NULL, NEW.label), NULL)),
      'secret_ciphertext', json(iif(NEW.secret_ciphertext IS NOT NULL, json_array(NULL, iif(NEW.secret_ciphertext IS NULL, NULL, '[redacted]')), NULL)),
      'secret_prefix', json(iif(NEW.secret_prefix IS NOT NULL, json_array(NULL, iif(NEW.secret_prefix IS NULL, NULL, '[redacted]')), NULL)),
      'secret_suffix', json(iif(NEW.secret_suffix IS NOT NULL, json_array(NULL, iif(NEW.secret_suffix IS NULL, NULL, '[redacted]')), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'expires_at', json(iif(NEW.expires_at IS NOT NULL, json_array(NULL, NEW.expires_at), NULL)),
      'revoked_at', json(iif(NEW.revoked_at IS NOT NULL, json_array(NULL, NEW.revoked_at), NULL)),
      'created_by', json(iif(NEW.created_by IS NOT NULL, json_array(NULL, NEW.created_by), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',api_keys,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_api_keys_update` AFTER UPDATE ON `api_keys`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',api_keys,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'api_key', NEW.id,
    json_patch('{}', json_object(
      'key_id', json(iif(OLD.key_id IS NOT NEW.key_id, json_array(OLD.key_id, NEW.key_id), NULL)),
      'name', json(iif(OLD.name IS NOT NEW.name, json_array(OLD.name, NEW.name), NULL)),
      'label', json(iif(OLD.label IS NOT NEW.label, json_array(OLD.label, NEW.label), NULL)),
      'secret_ciphertext', json(iif(OLD.secret_ciphertext IS NOT NEW.secret_ciphertext, json_array(iif(OLD.secret_ciphertext IS NULL, NULL, '[redacted]'), iif(NEW.secret_ciphertext IS NULL, NULL, '[redacted]')), NULL)),
      'secret_prefix', json(iif(OLD.secret_prefix IS NOT NEW.secret_prefix, json_array(iif(OLD.secret_prefix IS NULL, NULL, '[redacted]'), iif(NEW.secret_prefix IS NULL, NULL, '[redacted]')), NULL)),
      'secret_suffix', json(iif(OLD.secret_suffix IS NOT NEW.secret_suffix, json_array(iif(OLD.secret_suffix IS NULL, NULL, '[redacted]'), iif(NEW.secret_suffix IS NULL, NULL, '[redacted]')), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'expires_at', json(iif(OLD.expires_at IS NOT NEW.expires_at, json_array(OLD.expires_at, NEW.expires_at), NULL)),
      'revoked_at', json(iif(OLD.revoked_at IS NOT NEW.revoked_at, json_array(OLD.revoked_at, NEW.revoked_at), NULL)),
      'created_by', json(iif(OLD.created_by IS NOT NEW.created_by, json_array(OLD.created_by, NEW.created_by), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',api_keys,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_api_keys_delete` AFTER DELETE ON `api_keys`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',api_keys,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'api_key', OLD.id,
    json_patch('{}', json_object(
      'key_id', json(iif(OLD.key_id IS NOT NULL, json_array(OLD.key_id, NULL), NULL)),
      'name', json(iif(OLD.name IS NOT NULL, json_array(OLD.name, NULL), NULL)),
      'label', json(iif(OLD.label IS NOT NULL, json_array(OLD.label, NULL), NULL)),
      'secret_ciphertext', json(iif(OLD.secret_ciphertext IS NOT NULL, json_array(iif(OLD.secret_ciphertext IS NULL, NULL, '[redacted]'), NULL), NULL)),
      'secret_prefix', json(iif(OLD.secret_prefix IS NOT NULL, json_array(iif(OLD.secret_prefix IS NULL, NULL, '[redacted]'), NULL), NULL)),
      'secret_suffix', json(iif(OLD.secret_suffix IS NOT NULL, json_array(iif(OLD.secret_suffix IS NULL, NULL, '[redacted]'), NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'expires_at', json(iif(OLD.expires_at IS NOT NULL, json_array(OLD.expires_at, NULL), NULL)),
      'revoked_at', json(iif(OLD.revoked_at IS NOT NULL, json_array(OLD.revoked_at, NULL), NULL)),
      'created_by', json(iif(OLD.created_by IS NOT NULL, json_array(OLD.created_by, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',api_keys,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_internal_transactions_insert` AFTER INSERT ON `internal_transactions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',internal_transactions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'internal_transaction', NEW.id,
    json_patch('{}', json_object(
      'user_id', json(iif(NEW.user_id IS NOT NULL, json_array(NULL, NEW.user_id), NULL)),
      'onchain_asset_id', json(iif(NEW.onchain_asset_id IS NOT NULL, json_array(NULL, NEW.onchain_asset_id), NULL)),
      'redemption_id', json(iif(NEW.redemption_id IS NOT NULL, json_array(NULL, NEW.redemption_id), NULL)),
      'type', json(iif(NEW.type IS NOT NULL, json_array(NULL, NEW.type), NULL)),
      'amount', json(iif(NEW.amount IS NOT NULL, json_array(NULL, NEW.amount), NULL)),
      'metadata', json(iif(NEW.metadata IS NOT NULL, json_array(NULL, json(NEW.metadata)), NULL)),
      'notes', json(iif(NEW.notes IS NOT NULL, json_array(NULL, NEW.notes), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',internal_transactions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_internal_transactions_update` AFTER UPDATE ON `internal_transactions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',internal_transactions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'internal_transaction', NEW.id,
    json_patch('{}', json_object(
      'user_id', json(iif(OLD.user_id IS NOT NEW.user_id, json_array(OLD.user_id, NEW.user_id), NULL)),
      'onchain_asset_id', json(iif(OLD.onchain_asset_id IS NOT NEW.onchain_asset_id, json_array(OLD.onchain_asset_id, NEW.onchain_asset_id), NULL)),
      'redemption_id', json(iif(OLD.redemption_id IS NOT NEW.redemption_id, json_array(OLD.redemption_id, NEW.redemption_id), NULL)),
      'type', json(iif(OLD.type IS NOT NEW.type, json_array(OLD.type, NEW.type), NULL)),
      'amount', json(iif(OLD.amount IS NOT NEW.amount, json_array(OLD.amount, NEW.amount), NULL)),
      'metadata', json(iif(OLD.metadata IS NOT NEW.metadata, json_array(json(OLD.metadata), json(NEW.metadata)), NULL)),
      'notes', json(iif(OLD.notes IS NOT NEW.notes, json_array(OLD.notes, NEW.notes), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',internal_transactions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_internal_transactions_delete` AFTER DELETE ON `internal_transactions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',internal_transactions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'internal_transaction', OLD.id,
    json_patch('{}', json_object(
      'user_id', json(iif(OLD.user_id IS NOT NULL, json_array(OLD.user_id, NULL), NULL)),
      'onchain_asset_id', json(iif(OLD.onchain_asset_id IS NOT NULL, json_array(OLD.onchain_asset_id, NULL), NULL)),
      'redemption_id', json(iif(OLD.redemption_id IS NOT NULL, json_array(OLD.redemption_id, NULL), NULL)),
      'type', json(iif(OLD.type IS NOT NULL, json_array(OLD.type, NULL), NULL)),
      'amount', json(iif(OLD.amount IS NOT NULL, json_array(OLD.amount, NULL), NULL)),
      'metadata', json(iif(OLD.metadata IS NOT NULL, json_array(json(OLD.metadata), NULL), NULL)),
      'notes', json(iif(OLD.notes IS NOT NULL, json_array(OLD.notes, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',internal_transactions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_attribute_definitions_insert` AFTER INSERT ON `attribute_definitions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',attribute_definitions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'attribute', NEW.id,
    json_patch('{}', json_object(
      'key', json(iif(NEW.key IS NOT NULL, json_array(NULL, NEW.key), NULL)),
      'type', json(iif(NEW.type IS NOT NULL, json_array(NULL, NEW.type), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',attribute_definitions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_attribute_definitions_update` AFTER UPDATE ON `attribute_definitions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',attribute_definitions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'attribute', NEW.id,
    json_patch('{}', json_object(
      'key', json(iif(OLD.key IS NOT NEW.key, json_array(OLD.key, NEW.key), NULL)),
      'type', json(iif(OLD.type IS NOT NEW.type, json_array(OLD.type, NEW.type), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',attribute_definitions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_attribute_definitions_delete` AFTER DELETE ON `attribute_definitions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',attribute_definitions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'attribute', OLD.id,
    json_patch('{}', json_object(
      'key', json(iif(OLD.key IS NOT NULL, json_array(OLD.key, NULL), NULL)),
      'type', json(iif(OLD.type IS NOT NULL, json_array(OLD.type, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',attribute_definitions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_customers_insert` AFTER INSERT ON `customers`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',customers,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'customer', NEW.id,
    json_patch('{}', json_object(
      'external_id', json(iif(NEW.external_id IS NOT NULL, json_array(NULL, NEW.external_id), NULL)),
      'email', json(iif(NEW.email IS NOT NULL, json_array(NULL, NEW.email), NULL)),
      'username', json(iif(NEW.username IS NOT NULL, json_array(NULL, NEW.username), NULL)),
      'country_code', json(iif(NEW.country_code IS NOT NULL, json_array(NULL, NEW.country_code), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'xp_balance', json(iif(NEW.xp_balance IS NOT NULL, json_array(NULL, NEW.xp_balance), NULL)),
      'lifetime_xp', json(iif(NEW.lifetime_xp IS NOT NULL, json_array(NULL, NEW.lifetime_xp), NULL)),
      'tier_held', json(iif(NEW.tier_held IS NOT NULL, json_array(NULL, NEW.tier_held), NULL)),
      'tier_id', json(iif(NEW.tier_id IS NOT NULL, json_array(NULL, NEW.tier_id), NULL)),
      'tier_valid_until', json(iif(NEW.tier_valid_until IS NOT NULL, json_array(NULL, NEW.tier_valid_until), NULL)),
      'erased_at', json(iif(NEW.erased_at IS NOT NULL, json_array(NULL, NEW.erased_at), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',customers,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_customers_update` AFTER UPDATE ON `customers`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',customers,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'customer', NEW.id,
    json_patch('{}', json_object(
      'external_id', json(iif(OLD.external_id IS NOT NEW.external_id, json_array(OLD.external_id, NEW.external_id), NULL)),
      'email', json(iif(OLD.email IS NOT NEW.email, json_array(OLD.email, NEW.email), NULL)),
      'username', json(iif(OLD.username IS NOT NEW.username, json_array(OLD.username, NEW.username), NULL)),
      'country_code', json(iif(OLD.country_code IS NOT NEW.country_code, json_array(OLD.country_code, NEW.country_code), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'xp_balance', json(iif(OLD.xp_balance IS NOT NEW.xp_balance, json_array(OLD.xp_balance, NEW.xp_balance), NULL)),
      'lifetime_xp', json(iif(OLD.lifetime_xp IS NOT NEW.lifetime_xp, json_array(OLD.lifetime_xp, NEW.lifetime_xp), NULL)),
      'tier_held', json(iif(OLD.tier_held IS NOT NEW.tier_held, json_array(OLD.tier_held, NEW.tier_held), NULL)),
      'tier_id', json(iif(OLD.tier_id IS NOT NEW.tier_id, json_array(OLD.tier_id, NEW.tier_id), NULL)),
      'tier_valid_until', json(iif(OLD.tier_valid_until IS NOT NEW.tier_valid_until, json_array(OLD.tier_valid_until, NEW.tier_valid_until), NULL)),
      'erased_at', json(iif(OLD.erased_at IS NOT NEW.erased_at, json_array(OLD.erased_at, NEW.erased_at), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',customers,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_customers_delete` AFTER DELETE ON `customers`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',customers,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'customer', OLD.id,
    json_patch('{}', json_object(
      'external_id', json(iif(OLD.external_id IS NOT NULL, json_array(OLD.external_id, NULL), NULL)),
      'email', json(iif(OLD.email IS NOT NULL, json_array(OLD.email, NULL), NULL)),
      'username', json(iif(OLD.username IS NOT NULL, json_array(OLD.username, NULL), NULL)),
      'country_code', json(iif(OLD.country_code IS NOT NULL, json_array(OLD.country_code, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'xp_balance', json(iif(OLD.xp_balance IS NOT NULL, json_array(OLD.xp_balance, NULL), NULL)),
      'lifetime_xp', json(iif(OLD.lifetime_xp IS NOT NULL, json_array(OLD.lifetime_xp, NULL), NULL)),
      'tier_held', json(iif(OLD.tier_held IS NOT NULL, json_array(OLD.tier_held, NULL), NULL)),
      'tier_id', json(iif(OLD.tier_id IS NOT NULL, json_array(OLD.tier_id, NULL), NULL)),
      'tier_valid_until', json(iif(OLD.tier_valid_until IS NOT NULL, json_array(OLD.tier_valid_until, NULL), NULL)),
      'erased_at', json(iif(OLD.erased_at IS NOT NULL, json_array(OLD.erased_at, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',customers,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_customer_attribute_values_insert` AFTER INSERT ON `customer_attribute_values`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',customer_attribute_values,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'customer', NEW.user_id,
    json_object('attr.' || (SELECT d.key FROM attribute_definitions d WHERE d.id = NEW.definition_id), json_array(NULL, coalesce(NEW.value_text, NEW.value_number))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',customer_attribute_values,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_customer_attribute_values_update` AFTER UPDATE ON `customer_attribute_values`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',customer_attribute_values,') > 0) AND coalesce(OLD.value_text, OLD.value_number) IS NOT coalesce(NEW.value_text, NEW.value_number)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'customer', NEW.user_id,
    json_object('attr.' || (SELECT d.key FROM attribute_definitions d WHERE d.id = NEW.definition_id), json_array(coalesce(OLD.value_text, OLD.value_number), coalesce(NEW.value_text, NEW.value_number))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',customer_attribute_values,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_customer_attribute_values_delete` AFTER DELETE ON `customer_attribute_values`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',customer_attribute_values,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'customer', OLD.user_id,
    json_object('attr.' || (SELECT d.key FROM attribute_definitions d WHERE d.id = OLD.definition_id), json_array(coalesce(OLD.value_text, OLD.value_number), NULL)),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',customer_attribute_values,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_cohorts_insert` AFTER INSERT ON `cohorts`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',cohorts,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'cohort', NEW.id,
    json_patch('{}', json_object(
      'name', json(iif(NEW.name IS NOT NULL, json_array(NULL, NEW.name), NULL)),
      'description', json(iif(NEW.description IS NOT NULL, json_array(NULL, NEW.description), NULL)),
      'rules', json(iif(NEW.rules IS NOT NULL, json_array(NULL, json(NEW.rules)), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',cohorts,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_cohorts_update` AFTER UPDATE ON `cohorts`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',cohorts,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'cohort', NEW.id,
    json_patch('{}', json_object(
      'name', json(iif(OLD.name IS NOT NEW.name, json_array(OLD.name, NEW.name), NULL)),
      'description', json(iif(OLD.description IS NOT NEW.description, json_array(OLD.description, NEW.description), NULL)),
      'rules', json(iif(OLD.rules IS NOT NEW.rules, json_array(json(OLD.rules), json(NEW.rules)), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',cohorts,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_cohorts_delete` AFTER DELETE ON `cohorts`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',cohorts,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'cohort', OLD.id,
    json_patch('{}', json_object(
      'name', json(iif(OLD.name IS NOT NULL, json_array(OLD.name, NULL), NULL)),
      'description', json(iif(OLD.description IS NOT NULL, json_array(OLD.description, NULL), NULL)),
      'rules', json(iif(OLD.rules IS NOT NULL, json_array(json(OLD.rules), NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',cohorts,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_earning_rules_insert` AFTER INSERT ON `earning_rules`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',earning_rules,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'earning_rule', NEW.id,
    json_patch('{}', json_object(
      'name', json(iif(NEW.name IS NOT NULL, json_array(NULL, NEW.name), NULL)),
      'description', json(iif(NEW.description IS NOT NULL, json_array(NULL, NEW.description), NULL)),
      'event_type', json(iif(NEW.event_type IS NOT NULL, json_array(NULL, NEW.event_type), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'priority', json(iif(NEW.priority IS NOT NULL, json_array(NULL, NEW.priority), NULL)),
      'stackable', json(iif(NEW.stackable IS NOT NULL, json_array(NULL, NEW.stackable), NULL)),
      'conditions', json(iif(NEW.conditions IS NOT NULL, json_array(NULL, json(NEW.conditions)), NULL)),
      'effect', json(iif(NEW.effect IS NOT NULL, json_array(NULL, json(NEW.effect)), NULL)),
      'multipliers', json(iif(NEW.multipliers IS NOT NULL, json_array(NULL, json(NEW.multipliers)), NULL)),
      'limits', json(iif(NEW.limits IS NOT NULL, json_array(NULL, json(NEW.limits)), NULL)),
      'total_xp_budget', json(iif(NEW.total_xp_budget IS NOT NULL, json_array(NULL, NEW.total_xp_budget), NULL)),
      'starts_at', json(iif(NEW.starts_at IS NOT NULL, json_array(NULL, NEW.starts_at), NULL)),
      'ends_at', json(iif(NEW.ends_at IS NOT NULL, json_array(NULL, NEW.ends_at), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',earning_rules,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_earning_rules_update` AFTER UPDATE ON `earning_rules`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',earning_rules,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'earning_rule', NEW.id,
    json_patch('{}', json_object(
      'name', json(iif(OLD.name IS NOT NEW.name, json_array(OLD.name, NEW.name), NULL)),
      'description', json(iif(OLD.description IS NOT NEW.description, json_array(OLD.description, NEW.description), NULL)),
      'event_type', json(iif(OLD.event_type IS NOT NEW.event_type, json_array(OLD.event_type, NEW.event_type), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'priority', json(iif(OLD.priority IS NOT NEW.priority, json_array(OLD.priority, NEW.priority), NULL)),
      'stackable', json(iif(OLD.stackable IS NOT NEW.stackable, json_array(OLD.stackable, NEW.stackable), NULL)),
      'conditions', json(iif(OLD.conditions IS NOT NEW.conditions, json_array(json(OLD.conditions), json(NEW.conditions)), NULL)),
      'effect', json(iif(OLD.effect IS NOT NEW.effect, json_array(json(OLD.effect), json(NEW.effect)), NULL)),
      'multipliers', json(iif(OLD.multipliers IS NOT NEW.multipliers, json_array(json(OLD.multipliers), json(NEW.multipliers)), NULL)),
      'limits', json(iif(OLD.limits IS NOT NEW.limits, json_array(json(OLD.limits), json(NEW.limits)), NULL)),
      'total_xp_budget', json(iif(OLD.total_xp_budget IS NOT NEW.total_xp_budget, json_array(OLD.total_xp_budget, NEW.total_xp_budget), NULL)),
      'starts_at', json(iif(OLD.starts_at IS NOT NEW.starts_at, json_array(OLD.starts_at, NEW.starts_at), NULL)),
      'ends_at', json(iif(OLD.ends_at IS NOT NEW.ends_at, json_array(OLD.ends_at, NEW.ends_at), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',earning_rules,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_earning_rules_delete` AFTER DELETE ON `earning_rules`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',earning_rules,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'earning_rule', OLD.id,
    json_patch('{}', json_object(
      'name', json(iif(OLD.name IS NOT NULL, json_array(OLD.name, NULL), NULL)),
      'description', json(iif(OLD.description IS NOT NULL, json_array(OLD.description, NULL), NULL)),
      'event_type', json(iif(OLD.event_type IS NOT NULL, json_array(OLD.event_type, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'priority', json(iif(OLD.priority IS NOT NULL, json_array(OLD.priority, NULL), NULL)),
      'stackable', json(iif(OLD.stackable IS NOT NULL, json_array(OLD.stackable, NULL), NULL)),
      'conditions', json(iif(OLD.conditions IS NOT NULL, json_array(json(OLD.conditions), NULL), NULL)),
      'effect', json(iif(OLD.effect IS NOT NULL, json_array(json(OLD.effect), NULL), NULL)),
      'multipliers', json(iif(OLD.multipliers IS NOT NULL, json_array(json(OLD.multipliers), NULL), NULL)),
      'limits', json(iif(OLD.limits IS NOT NULL, json_array(json(OLD.limits), NULL), NULL)),
      'total_xp_budget', json(iif(OLD.total_xp_budget IS NOT NULL, json_array(OLD.total_xp_budget, NULL), NULL)),
      'starts_at', json(iif(OLD.starts_at IS NOT NULL, json_array(OLD.starts_at, NULL), NULL)),
      'ends_at', json(iif(OLD.ends_at IS NOT NULL, json_array(OLD.ends_at, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',earning_rules,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_program_settings_insert` AFTER INSERT ON `program_settings`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',program_settings,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'program_settings', NEW.tenant_id,
    json_patch('{}', json_object(
      'timezone', json(iif(NEW.timezone IS NOT NULL, json_array(NULL, NEW.timezone), NULL)),
      'points_pending_period', json(iif(NEW.points_pending_period IS NOT NULL, json_array(NULL, NEW.points_pending_period), NULL)),
      'points_validity', json(iif(NEW.points_validity IS NOT NULL, json_array(NULL, NEW.points_validity), NULL)),
      'points_expiry_rounding', json(iif(NEW.points_expiry_rounding IS NOT NULL, json_array(NULL, NEW.points_expiry_rounding), NULL)),
      'points_expiry_notice', json(iif(NEW.points_expiry_notice IS NOT NULL, json_array(NULL, NEW.points_expiry_notice), NULL)),
      'tiers_basis', json(iif(NEW.tiers_basis IS NOT NULL, json_array(NULL, NEW.tiers_basis), NULL)),
      'tiers_period', json(iif(NEW.tiers_period IS NOT NULL, json_array(NULL, NEW.tiers_period), NULL)),
      'tiers_downgrade', json(iif(NEW.tiers_downgrade IS NOT NULL, json_array(NULL, NEW.tiers_downgrade), NULL)),
      'tiers_review', json(iif(NEW.tiers_review IS NOT NULL, json_array(NULL, NEW.tiers_review), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',program_settings,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_program_settings_update` AFTER UPDATE ON `program_settings`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',program_settings,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'program_settings', NEW.tenant_id,
    json_patch('{}', json_object(
      'timezone', json(iif(OLD.timezone IS NOT NEW.timezone, json_array(OLD.timezone, NEW.timezone), NULL)),
      'points_pending_period', json(iif(OLD.points_pending_period IS NOT NEW.points_pending_period, json_array(OLD.points_pending_period, NEW.points_pending_period), NULL)),
      'points_validity', json(iif(OLD.points_validity IS NOT NEW.points_validity, json_array(OLD.points_validity, NEW.points_validity), NULL)),
      'points_expiry_rounding', json(iif(OLD.points_expiry_rounding IS NOT NEW.points_expiry_rounding, json_array(OLD.points_expiry_rounding, NEW.points_expiry_rounding), NULL)),
      'points_expiry_notice', json(iif(OLD.points_expiry_notice IS NOT NEW.points_expiry_notice, json_array(OLD.points_expiry_notice, NEW.points_expiry_notice), NULL)),
      'tiers_basis', json(iif(OLD.tiers_basis IS NOT NEW.tiers_basis, json_array(OLD.tiers_basis, NEW.tiers_basis), NULL)),
      'tiers_period', json(iif(OLD.tiers_period IS NOT NEW.tiers_period, json_array(OLD.tiers_period, NEW.tiers_period), NULL)),
      'tiers_downgrade', json(iif(OLD.tiers_downgrade IS NOT NEW.tiers_downgrade, json_array(OLD.tiers_downgrade, NEW.tiers_downgrade), NULL)),
      'tiers_review', json(iif(OLD.tiers_review IS NOT NEW.tiers_review, json_array(OLD.tiers_review, NEW.tiers_review), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',program_settings,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_program_settings_delete` AFTER DELETE ON `program_settings`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',program_settings,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'program_settings', OLD.tenant_id,
    json_patch('{}', json_object(
      'timezone', json(iif(OLD.timezone IS NOT NULL, json_array(OLD.timezone, NULL), NULL)),
      'points_pending_period', json(iif(OLD.points_pending_period IS NOT NULL, json_array(OLD.points_pending_period, NULL), NULL)),
      'points_validity', json(iif(OLD.points_validity IS NOT NULL, json_array(OLD.points_validity, NULL), NULL)),
      'points_expiry_rounding', json(iif(OLD.points_expiry_rounding IS NOT NULL, json_array(OLD.points_expiry_rounding, NULL), NULL)),
      'points_expiry_notice', json(iif(OLD.points_expiry_notice IS NOT NULL, json_array(OLD.points_expiry_notice, NULL), NULL)),
      'tiers_basis', json(iif(OLD.tiers_basis IS NOT NULL, json_array(OLD.tiers_basis, NULL), NULL)),
      'tiers_period', json(iif(OLD.tiers_period IS NOT NULL, json_array(OLD.tiers_period, NULL), NULL)),
      'tiers_downgrade', json(iif(OLD.tiers_downgrade IS NOT NULL, json_array(OLD.tiers_downgrade, NULL), NULL)),
      'tiers_review', json(iif(OLD.tiers_review IS NOT NULL, json_array(OLD.tiers_review, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',program_settings,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_tier_rules_insert` AFTER INSERT ON `tier_rules`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',tier_rules,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'tier', NEW.id,
    json_patch('{}', json_object(
      'tier_name', json(iif(NEW.tier_name IS NOT NULL, json_array(NULL, NEW.tier_name), NULL)),
      'min_xp_threshold', json(iif(NEW.min_xp_threshold IS NOT NULL, json_array(NULL, NEW.min_xp_threshold), NULL)),
      'benefits_description', json(iif(NEW.benefits_description IS NOT NULL, json_array(NULL, NEW.benefits_description), NULL)),
      'color', json(iif(NEW.color IS NOT NULL, json_array(NULL, NEW.color), NULL)),
      'icon', json(iif(NEW.icon IS NOT NULL, json_array(NULL, NEW.icon), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',tier_rules,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_tier_rules_update` AFTER UPDATE ON `tier_rules`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',tier_rules,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'tier', NEW.id,
    json_patch('{}', json_object(
      'tier_name', json(iif(OLD.tier_name IS NOT NEW.tier_name, json_array(OLD.tier_name, NEW.tier_name), NULL)),
      'min_xp_threshold', json(iif(OLD.min_xp_threshold IS NOT NEW.min_xp_threshold, json_array(OLD.min_xp_threshold, NEW.min_xp_threshold), NULL)),
      'benefits_description', json(iif(OLD.benefits_description IS NOT NEW.benefits_description, json_array(OLD.benefits_description, NEW.benefits_description), NULL)),
      'color', json(iif(OLD.color IS NOT NEW.color, json_array(OLD.color, NEW.color), NULL)),
      'icon', json(iif(OLD.icon IS NOT NEW.icon, json_array(OLD.icon, NEW.icon), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',tier_rules,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_tier_rules_delete` AFTER DELETE ON `tier_rules`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',tier_rules,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'tier', OLD.id,
    json_patch('{}', json_object(
      'tier_name', json(iif(OLD.tier_name IS NOT NULL, json_array(OLD.tier_name, NULL), NULL)),
      'min_xp_threshold', json(iif(OLD.min_xp_threshold IS NOT NULL, json_array(OLD.min_xp_threshold, NULL), NULL)),
      'benefits_description', json(iif(OLD.benefits_description IS NOT NULL, json_array(OLD.benefits_description, NULL), NULL)),
      'color', json(iif(OLD.color IS NOT NULL, json_array(OLD.color, NULL), NULL)),
      'icon', json(iif(OLD.icon IS NOT NULL, json_array(OLD.icon, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',tier_rules,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_rewards_insert` AFTER INSERT ON `rewards`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',rewards,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'reward', NEW.id,
    json_patch('{}', json_object(
      'title', json(iif(NEW.title IS NOT NULL, json_array(NULL, NEW.title), NULL)),
      'description', json(iif(NEW.description IS NOT NULL, json_array(NULL, NEW.description), NULL)),
      'xp_cost', json(iif(NEW.xp_cost IS NOT NULL, json_array(NULL, NEW.xp_cost), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'min_tier_id', json(iif(NEW.min_tier_id IS NOT NULL, json_array(NULL, NEW.min_tier_id), NULL)),
      'onchain_asset_id', json(iif(NEW.onchain_asset_id IS NOT NULL, json_array(NULL, NEW.onchain_asset_id), NULL)),
      'stock', json(iif(NEW.stock IS NOT NULL, json_array(NULL, NEW.stock), NULL)),
      'metadata', json(iif(NEW.metadata IS NOT NULL, json_array(NULL, json(NEW.metadata)), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',rewards,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_rewards_update` AFTER UPDATE ON `rewards`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',rewards,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'reward', NEW.id,
    json_patch('{}', json_object(
      'title', json(iif(OLD.title IS NOT NEW.title, json_array(OLD.title, NEW.title), NULL)),
      'description', json(iif(OLD.description IS NOT NEW.description, json_array(OLD.description, NEW.description), NULL)),
      'xp_cost', json(iif(OLD.xp_cost IS NOT NEW.xp_cost, json_array(OLD.xp_cost, NEW.xp_cost), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'min_tier_id', json(iif(OLD.min_tier_id IS NOT NEW.min_tier_id, json_array(OLD.min_tier_id, NEW.min_tier_id), NULL)),
      'onchain_asset_id', json(iif(OLD.onchain_asset_id IS NOT NEW.onchain_asset_id, json_array(OLD.onchain_asset_id, NEW.onchain_asset_id), NULL)),
      'stock', json(iif(OLD.stock IS NOT NEW.stock, json_array(OLD.stock, NEW.stock), NULL)),
      'metadata', json(iif(OLD.metadata IS NOT NEW.metadata, json_array(json(OLD.metadata), json(NEW.metadata)), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',rewards,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_rewards_delete` AFTER DELETE ON `rewards`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',rewards,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'reward', OLD.id,
    json_patch('{}', json_object(
      'title', json(iif(OLD.title IS NOT NULL, json_array(OLD.title, NULL), NULL)),
      'description', json(iif(OLD.description IS NOT NULL, json_array(OLD.description, NULL), NULL)),
      'xp_cost', json(iif(OLD.xp_cost IS NOT NULL, json_array(OLD.xp_cost, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'min_tier_id', json(iif(OLD.min_tier_id IS NOT NULL, json_array(OLD.min_tier_id, NULL), NULL)),
      'onchain_asset_id', json(iif(OLD.onchain_asset_id IS NOT NULL, json_array(OLD.onchain_asset_id, NULL), NULL)),
      'stock', json(iif(OLD.stock IS NOT NULL, json_array(OLD.stock, NULL), NULL)),
      'metadata', json(iif(OLD.metadata IS NOT NULL, json_array(json(OLD.metadata), NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',rewards,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_redemptions_insert` AFTER INSERT ON `redemptions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',redemptions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'redemption', NEW.id,
    json_patch('{}', json_object(
      'user_id', json(iif(NEW.user_id IS NOT NULL, json_array(NULL, NEW.user_id), NULL)),
      'reward_id', json(iif(NEW.reward_id IS NOT NULL, json_array(NULL, NEW.reward_id), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'xp_spent', json(iif(NEW.xp_spent IS NOT NULL, json_array(NULL, NEW.xp_spent), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',redemptions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_redemptions_update` AFTER UPDATE ON `redemptions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',redemptions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'redemption', NEW.id,
    json_patch('{}', json_object(
      'user_id', json(iif(OLD.user_id IS NOT NEW.user_id, json_array(OLD.user_id, NEW.user_id), NULL)),
      'reward_id', json(iif(OLD.reward_id IS NOT NEW.reward_id, json_array(OLD.reward_id, NEW.reward_id), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'xp_spent', json(iif(OLD.xp_spent IS NOT NEW.xp_spent, json_array(OLD.xp_spent, NEW.xp_spent), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',redemptions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_redemptions_delete` AFTER DELETE ON `redemptions`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',redemptions,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'redemption', OLD.id,
    json_patch('{}', json_object(
      'user_id', json(iif(OLD.user_id IS NOT NULL, json_array(OLD.user_id, NULL), NULL)),
      'reward_id', json(iif(OLD.reward_id IS NOT NULL, json_array(OLD.reward_id, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'xp_spent', json(iif(OLD.xp_spent IS NOT NULL, json_array(OLD.xp_spent, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',redemptions,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_onchain_assets_insert` AFTER INSERT ON `onchain_assets`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',onchain_assets,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'onchain_asset', NEW.id,
    json_patch(json_patch('{}', json_object(
      'key', json(iif(NEW.key IS NOT NULL, json_array(NULL, NEW.key), NULL)),
      'type', json(iif(NEW.type IS NOT NULL, json_array(NULL, NEW.type), NULL)),
      'chain_id', json(iif(NEW.chain_id IS NOT NULL, json_array(NULL, NEW.chain_id), NULL)),
      'asset_address', json(iif(NEW.asset_address IS NOT NULL, json_array(NULL, NEW.asset_address), NULL)),
      'decimals', json(iif(NEW.decimals IS NOT NULL, json_array(NULL, NEW.decimals), NULL)),
      'name', json(iif(NEW.name IS NOT NULL, json_array(NULL, NEW.name), NULL)),
      'symbol', json(iif(NEW.symbol IS NOT NULL, json_array(NULL, NEW.symbol), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'deploy_tx_hash', json(iif(NEW.deploy_tx_hash IS NOT NULL, json_array(NULL, NEW.deploy_tx_hash), NULL)),
      'deployed_at', json(iif(NEW.deployed_at IS NOT NULL, json_array(NULL, NEW.deployed_at), NULL)),
      'metadata', json(iif(NEW.metadata IS NOT NULL, json_array(NULL, json(NEW.metadata)), NULL)),
      'total_owners', json(iif(NEW.total_owners IS NOT NULL, json_array(NULL, NEW.total_owners), NULL)),
      'total_txns', json(iif(NEW.total_txns IS NOT NULL, json_array(NULL, NEW.total_txns), NULL)),
      'last_indexed_block', json(iif(NEW.last_indexed_block IS NOT NULL, json_array(NULL, NEW.last_indexed_block), NULL)),
      'indexed_genesis_hash', json(iif(NEW.indexed_genesis_hash IS NOT NULL, json_array(NULL, NEW.indexed_genesis_hash), NULL)),
      'indexed_supply', json(iif(NEW.indexed_supply IS NOT NULL, json_array(NULL, NEW.indexed_supply), NULL)))), json_object(
      'opening_epoch', json(iif(NEW.opening_epoch IS NOT NULL, json_array(NULL, NEW.opening_epoch), NULL)),
      'opening_cursor', json(iif(NEW.opening_cursor IS NOT NULL, json_array(NULL, NEW.opening_cursor), NULL)),
      'opening_completed_at', json(iif(NEW.opening_completed_at IS NOT NULL, json_array(NULL, NEW.opening_completed_at), NULL)),
      'opening_block', json(iif(NEW.opening_block IS NOT NULL, json_array(NULL, NEW.opening_block), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',onchain_assets,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_onchain_assets_update` AFTER UPDATE ON `onchain_assets`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',onchain_assets,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'onchain_asset', NEW.id,
    json_patch(json_patch('{}', json_object(
      'key', json(iif(OLD.key IS NOT NEW.key, json_array(OLD.key, NEW.key), NULL)),
      'type', json(iif(OLD.type IS NOT NEW.type, json_array(OLD.type, NEW.type), NULL)),
      'chain_id', json(iif(OLD.chain_id IS NOT NEW.chain_id, json_array(OLD.chain_id, NEW.chain_id), NULL)),
      'asset_address', json(iif(OLD.asset_address IS NOT NEW.asset_address, json_array(OLD.asset_address, NEW.asset_address), NULL)),
      'decimals', json(iif(OLD.decimals IS NOT NEW.decimals, json_array(OLD.decimals, NEW.decimals), NULL)),
      'name', json(iif(OLD.name IS NOT NEW.name, json_array(OLD.name, NEW.name), NULL)),
      'symbol', json(iif(OLD.symbol IS NOT NEW.symbol, json_array(OLD.symbol, NEW.symbol), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'deploy_tx_hash', json(iif(OLD.deploy_tx_hash IS NOT NEW.deploy_tx_hash, json_array(OLD.deploy_tx_hash, NEW.deploy_tx_hash), NULL)),
      'deployed_at', json(iif(OLD.deployed_at IS NOT NEW.deployed_at, json_array(OLD.deployed_at, NEW.deployed_at), NULL)),
      'metadata', json(iif(OLD.metadata IS NOT NEW.metadata, json_array(json(OLD.metadata), json(NEW.metadata)), NULL)),
      'total_owners', json(iif(OLD.total_owners IS NOT NEW.total_owners, json_array(OLD.total_owners, NEW.total_owners), NULL)),
      'total_txns', json(iif(OLD.total_txns IS NOT NEW.total_txns, json_array(OLD.total_txns, NEW.total_txns), NULL)),
      'last_indexed_block', json(iif(OLD.last_indexed_block IS NOT NEW.last_indexed_block, json_array(OLD.last_indexed_block, NEW.last_indexed_block), NULL)),
      'indexed_genesis_hash', json(iif(OLD.indexed_genesis_hash IS NOT NEW.indexed_genesis_hash, json_array(OLD.indexed_genesis_hash, NEW.indexed_genesis_hash), NULL)),
      'indexed_supply', json(iif(OLD.indexed_supply IS NOT NEW.indexed_supply, json_array(OLD.indexed_supply, NEW.indexed_supply), NULL)))), json_object(
      'opening_epoch', json(iif(OLD.opening_epoch IS NOT NEW.opening_epoch, json_array(OLD.opening_epoch, NEW.opening_epoch), NULL)),
      'opening_cursor', json(iif(OLD.opening_cursor IS NOT NEW.opening_cursor, json_array(OLD.opening_cursor, NEW.opening_cursor), NULL)),
      'opening_completed_at', json(iif(OLD.opening_completed_at IS NOT NEW.opening_completed_at, json_array(OLD.opening_completed_at, NEW.opening_completed_at), NULL)),
      'opening_block', json(iif(OLD.opening_block IS NOT NEW.opening_block, json_array(OLD.opening_block, NEW.opening_block), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',onchain_assets,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_onchain_assets_delete` AFTER DELETE ON `onchain_assets`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',onchain_assets,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'onchain_asset', OLD.id,
    json_patch(json_patch('{}', json_object(
      'key', json(iif(OLD.key IS NOT NULL, json_array(OLD.key, NULL), NULL)),
      'type', json(iif(OLD.type IS NOT NULL, json_array(OLD.type, NULL), NULL)),
      'chain_id', json(iif(OLD.chain_id IS NOT NULL, json_array(OLD.chain_id, NULL), NULL)),
      'asset_address', json(iif(OLD.asset_address IS NOT NULL, json_array(OLD.asset_address, NULL), NULL)),
      'decimals', json(iif(OLD.decimals IS NOT NULL, json_array(OLD.decimals, NULL), NULL)),
      'name', json(iif(OLD.name IS NOT NULL, json_array(OLD.name, NULL), NULL)),
      'symbol', json(iif(OLD.symbol IS NOT NULL, json_array(OLD.symbol, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'deploy_tx_hash', json(iif(OLD.deploy_tx_hash IS NOT NULL, json_array(OLD.deploy_tx_hash, NULL), NULL)),
      'deployed_at', json(iif(OLD.deployed_at IS NOT NULL, json_array(OLD.deployed_at, NULL), NULL)),
      'metadata', json(iif(OLD.metadata IS NOT NULL, json_array(json(OLD.metadata), NULL), NULL)),
      'total_owners', json(iif(OLD.total_owners IS NOT NULL, json_array(OLD.total_owners, NULL), NULL)),
      'total_txns', json(iif(OLD.total_txns IS NOT NULL, json_array(OLD.total_txns, NULL), NULL)),
      'last_indexed_block', json(iif(OLD.last_indexed_block IS NOT NULL, json_array(OLD.last_indexed_block, NULL), NULL)),
      'indexed_genesis_hash', json(iif(OLD.indexed_genesis_hash IS NOT NULL, json_array(OLD.indexed_genesis_hash, NULL), NULL)),
      'indexed_supply', json(iif(OLD.indexed_supply IS NOT NULL, json_array(OLD.indexed_supply, NULL), NULL)))), json_object(
      'opening_epoch', json(iif(OLD.opening_epoch IS NOT NULL, json_array(OLD.opening_epoch, NULL), NULL)),
      'opening_cursor', json(iif(OLD.opening_cursor IS NOT NULL, json_array(OLD.opening_cursor, NULL), NULL)),
      'opening_completed_at', json(iif(OLD.opening_completed_at IS NOT NULL, json_array(OLD.opening_completed_at, NULL), NULL)),
      'opening_block', json(iif(OLD.opening_block IS NOT NULL, json_array(OLD.opening_block, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',onchain_assets,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_webhook_endpoints_insert` AFTER INSERT ON `webhook_endpoints`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',webhook_endpoints,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'webhook_endpoint', NEW.id,
    json_patch('{}', json_object(
      'url', json(iif(NEW.url IS NOT NULL, json_array(NULL, NEW.url), NULL)),
      'description', json(iif(NEW.description IS NOT NULL, json_array(NULL, NEW.description), NULL)),
      'event_types', json(iif(NEW.event_types IS NOT NULL, json_array(NULL, json(NEW.event_types)), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'secret_ciphertext', json(iif(NEW.secret_ciphertext IS NOT NULL, json_array(NULL, iif(NEW.secret_ciphertext IS NULL, NULL, '[redacted]')), NULL)),
      'previous_secret_ciphertext', json(iif(NEW.previous_secret_ciphertext IS NOT NULL, json_array(NULL, iif(NEW.previous_secret_ciphertext IS NULL, NULL, '[redacted]')), NULL)),
      'previous_secret_expires_at', json(iif(NEW.previous_secret_expires_at IS NOT NULL, json_array(NULL, NEW.previous_secret_expires_at), NULL)),
      'failing_since', json(iif(NEW.failing_since IS NOT NULL, json_array(NULL, NEW.failing_since), NULL)),
      'disabled_reason', json(iif(NEW.disabled_reason IS NOT NULL, json_array(NULL, NEW.disabled_reason), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',webhook_endpoints,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_webhook_endpoints_update` AFTER UPDATE ON `webhook_endpoints`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',webhook_endpoints,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'webhook_endpoint', NEW.id,
    json_patch('{}', json_object(
      'url', json(iif(OLD.url IS NOT NEW.url, json_array(OLD.url, NEW.url), NULL)),
      'description', json(iif(OLD.description IS NOT NEW.description, json_array(OLD.description, NEW.description), NULL)),
      'event_types', json(iif(OLD.event_types IS NOT NEW.event_types, json_array(json(OLD.event_types), json(NEW.event_types)), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'secret_ciphertext', json(iif(OLD.secret_ciphertext IS NOT NEW.secret_ciphertext, json_array(iif(OLD.secret_ciphertext IS NULL, NULL, '[redacted]'), iif(NEW.secret_ciphertext IS NULL, NULL, '[redacted]')), NULL)),
      'previous_secret_ciphertext', json(iif(OLD.previous_secret_ciphertext IS NOT NEW.previous_secret_ciphertext, json_array(iif(OLD.previous_secret_ciphertext IS NULL, NULL, '[redacted]'), iif(NEW.previous_secret_ciphertext IS NULL, NULL, '[redacted]')), NULL)),
      'previous_secret_expires_at', json(iif(OLD.previous_secret_expires_at IS NOT NEW.previous_secret_expires_at, json_array(OLD.previous_secret_expires_at, NEW.previous_secret_expires_at), NULL)),
      'failing_since', json(iif(OLD.failing_since IS NOT NEW.failing_since, json_array(OLD.failing_since, NEW.failing_since), NULL)),
      'disabled_reason', json(iif(OLD.disabled_reason IS NOT NEW.disabled_reason, json_array(OLD.disabled_reason, NEW.disabled_reason), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',webhook_endpoints,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_webhook_endpoints_delete` AFTER DELETE ON `webhook_endpoints`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',webhook_endpoints,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'webhook_endpoint', OLD.id,
    json_patch('{}', json_object(
      'url', json(iif(OLD.url IS NOT NULL, json_array(OLD.url, NULL), NULL)),
      'description', json(iif(OLD.description IS NOT NULL, json_array(OLD.description, NULL), NULL)),
      'event_types', json(iif(OLD.event_types IS NOT NULL, json_array(json(OLD.event_types), NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'secret_ciphertext', json(iif(OLD.secret_ciphertext IS NOT NULL, json_array(iif(OLD.secret_ciphertext IS NULL, NULL, '[redacted]'), NULL), NULL)),
      'previous_secret_ciphertext', json(iif(OLD.previous_secret_ciphertext IS NOT NULL, json_array(iif(OLD.previous_secret_ciphertext IS NULL, NULL, '[redacted]'), NULL), NULL)),
      'previous_secret_expires_at', json(iif(OLD.previous_secret_expires_at IS NOT NULL, json_array(OLD.previous_secret_expires_at, NULL), NULL)),
      'failing_since', json(iif(OLD.failing_since IS NOT NULL, json_array(OLD.failing_since, NULL), NULL)),
      'disabled_reason', json(iif(OLD.disabled_reason IS NOT NULL, json_array(OLD.disabled_reason, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',webhook_endpoints,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_webhook_deliveries_insert` AFTER INSERT ON `webhook_deliveries`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',webhook_deliveries,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'webhook_delivery', NEW.id,
    json_patch('{}', json_object(
      'endpoint_id', json(iif(NEW.endpoint_id IS NOT NULL, json_array(NULL, NEW.endpoint_id), NULL)),
      'event_id', json(iif(NEW.event_id IS NOT NULL, json_array(NULL, NEW.event_id), NULL)),
      'event_type', json(iif(NEW.event_type IS NOT NULL, json_array(NULL, NEW.event_type), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'attempts', json(iif(NEW.attempts IS NOT NULL, json_array(NULL, NEW.attempts), NULL)),
      'last_status_code', json(iif(NEW.last_status_code IS NOT NULL, json_array(NULL, NEW.last_status_code), NULL)),
      'last_error', json(iif(NEW.last_error IS NOT NULL, json_array(NULL, NEW.last_error), NULL)),
      'next_attempt_at', json(iif(NEW.next_attempt_at IS NOT NULL, json_array(NULL, NEW.next_attempt_at), NULL)),
      'enqueued_at', json(iif(NEW.enqueued_at IS NOT NULL, json_array(NULL, NEW.enqueued_at), NULL)),
      'delivered_at', json(iif(NEW.delivered_at IS NOT NULL, json_array(NULL, NEW.delivered_at), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',webhook_deliveries,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_webhook_deliveries_update` AFTER UPDATE ON `webhook_deliveries`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',webhook_deliveries,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'webhook_delivery', NEW.id,
    json_patch('{}', json_object(
      'endpoint_id', json(iif(OLD.endpoint_id IS NOT NEW.endpoint_id, json_array(OLD.endpoint_id, NEW.endpoint_id), NULL)),
      'event_id', json(iif(OLD.event_id IS NOT NEW.event_id, json_array(OLD.event_id, NEW.event_id), NULL)),
      'event_type', json(iif(OLD.event_type IS NOT NEW.event_type, json_array(OLD.event_type, NEW.event_type), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'attempts', json(iif(OLD.attempts IS NOT NEW.attempts, json_array(OLD.attempts, NEW.attempts), NULL)),
      'last_status_code', json(iif(OLD.last_status_code IS NOT NEW.last_status_code, json_array(OLD.last_status_code, NEW.last_status_code), NULL)),
      'last_error', json(iif(OLD.last_error IS NOT NEW.last_error, json_array(OLD.last_error, NEW.last_error), NULL)),
      'next_attempt_at', json(iif(OLD.next_attempt_at IS NOT NEW.next_attempt_at, json_array(OLD.next_attempt_at, NEW.next_attempt_at), NULL)),
      'enqueued_at', json(iif(OLD.enqueued_at IS NOT NEW.enqueued_at, json_array(OLD.enqueued_at, NEW.enqueued_at), NULL)),
      'delivered_at', json(iif(OLD.delivered_at IS NOT NEW.delivered_at, json_array(OLD.delivered_at, NEW.delivered_at), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',webhook_deliveries,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_webhook_deliveries_delete` AFTER DELETE ON `webhook_deliveries`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',webhook_deliveries,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'webhook_delivery', OLD.id,
    json_patch('{}', json_object(
      'endpoint_id', json(iif(OLD.endpoint_id IS NOT NULL, json_array(OLD.endpoint_id, NULL), NULL)),
      'event_id', json(iif(OLD.event_id IS NOT NULL, json_array(OLD.event_id, NULL), NULL)),
      'event_type', json(iif(OLD.event_type IS NOT NULL, json_array(OLD.event_type, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'attempts', json(iif(OLD.attempts IS NOT NULL, json_array(OLD.attempts, NULL), NULL)),
      'last_status_code', json(iif(OLD.last_status_code IS NOT NULL, json_array(OLD.last_status_code, NULL), NULL)),
      'last_error', json(iif(OLD.last_error IS NOT NULL, json_array(OLD.last_error, NULL), NULL)),
      'next_attempt_at', json(iif(OLD.next_attempt_at IS NOT NULL, json_array(OLD.next_attempt_at, NULL), NULL)),
      'enqueued_at', json(iif(OLD.enqueued_at IS NOT NULL, json_array(OLD.enqueued_at, NULL), NULL)),
      'delivered_at', json(iif(OLD.delivered_at IS NOT NULL, json_array(OLD.delivered_at, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',webhook_deliveries,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_import_jobs_insert` AFTER INSERT ON `import_jobs`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',import_jobs,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'import', NEW.id,
    json_patch('{}', json_object(
      'kind', json(iif(NEW.kind IS NOT NULL, json_array(NULL, NEW.kind), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'file_sha256', json(iif(NEW.file_sha256 IS NOT NULL, json_array(NULL, NEW.file_sha256), NULL)),
      'file_bytes', json(iif(NEW.file_bytes IS NOT NULL, json_array(NULL, NEW.file_bytes), NULL)),
      'columns', json(iif(NEW.columns IS NOT NULL, json_array(NULL, json(NEW.columns)), NULL)),
      'rows_total', json(iif(NEW.rows_total IS NOT NULL, json_array(NULL, NEW.rows_total), NULL)),
      'created_by', json(iif(NEW.created_by IS NOT NULL, json_array(NULL, NEW.created_by), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',import_jobs,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_import_jobs_update` AFTER UPDATE ON `import_jobs`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',import_jobs,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'import', NEW.id,
    json_patch('{}', json_object(
      'kind', json(iif(OLD.kind IS NOT NEW.kind, json_array(OLD.kind, NEW.kind), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'file_sha256', json(iif(OLD.file_sha256 IS NOT NEW.file_sha256, json_array(OLD.file_sha256, NEW.file_sha256), NULL)),
      'file_bytes', json(iif(OLD.file_bytes IS NOT NEW.file_bytes, json_array(OLD.file_bytes, NEW.file_bytes), NULL)),
      'columns', json(iif(OLD.columns IS NOT NEW.columns, json_array(json(OLD.columns), json(NEW.columns)), NULL)),
      'rows_total', json(iif(OLD.rows_total IS NOT NEW.rows_total, json_array(OLD.rows_total, NEW.rows_total), NULL)),
      'created_by', json(iif(OLD.created_by IS NOT NEW.created_by, json_array(OLD.created_by, NEW.created_by), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',import_jobs,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_import_jobs_delete` AFTER DELETE ON `import_jobs`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',import_jobs,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'import', OLD.id,
    json_patch('{}', json_object(
      'kind', json(iif(OLD.kind IS NOT NULL, json_array(OLD.kind, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'file_sha256', json(iif(OLD.file_sha256 IS NOT NULL, json_array(OLD.file_sha256, NULL), NULL)),
      'file_bytes', json(iif(OLD.file_bytes IS NOT NULL, json_array(OLD.file_bytes, NULL), NULL)),
      'columns', json(iif(OLD.columns IS NOT NULL, json_array(json(OLD.columns), NULL), NULL)),
      'rows_total', json(iif(OLD.rows_total IS NOT NULL, json_array(OLD.rows_total, NULL), NULL)),
      'created_by', json(iif(OLD.created_by IS NOT NULL, json_array(OLD.created_by, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',import_jobs,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_export_jobs_insert` AFTER INSERT ON `export_jobs`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',export_jobs,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'export', NEW.id,
    json_patch('{}', json_object(
      'kind', json(iif(NEW.kind IS NOT NULL, json_array(NULL, NEW.kind), NULL)),
      'cohort_id', json(iif(NEW.cohort_id IS NOT NULL, json_array(NULL, NEW.cohort_id), NULL)),
      'period_from', json(iif(NEW.period_from IS NOT NULL, json_array(NULL, NEW.period_from), NULL)),
      'period_to', json(iif(NEW.period_to IS NOT NULL, json_array(NULL, NEW.period_to), NULL)),
      'status', json(iif(NEW.status IS NOT NULL, json_array(NULL, NEW.status), NULL)),
      'created_by', json(iif(NEW.created_by IS NOT NULL, json_array(NULL, NEW.created_by), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',export_jobs,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_export_jobs_update` AFTER UPDATE ON `export_jobs`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',export_jobs,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'export', NEW.id,
    json_patch('{}', json_object(
      'kind', json(iif(OLD.kind IS NOT NEW.kind, json_array(OLD.kind, NEW.kind), NULL)),
      'cohort_id', json(iif(OLD.cohort_id IS NOT NEW.cohort_id, json_array(OLD.cohort_id, NEW.cohort_id), NULL)),
      'period_from', json(iif(OLD.period_from IS NOT NEW.period_from, json_array(OLD.period_from, NEW.period_from), NULL)),
      'period_to', json(iif(OLD.period_to IS NOT NEW.period_to, json_array(OLD.period_to, NEW.period_to), NULL)),
      'status', json(iif(OLD.status IS NOT NEW.status, json_array(OLD.status, NEW.status), NULL)),
      'created_by', json(iif(OLD.created_by IS NOT NEW.created_by, json_array(OLD.created_by, NEW.created_by), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',export_jobs,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
END;
--> statement-breakpoint
-- src/db/sql/audit-log.sql
CREATE TRIGGER `audit_export_jobs_delete` AFTER DELETE ON `export_jobs`
WHEN EXISTS (SELECT 1 FROM audit_context WHERE instr(tables, ',export_jobs,') > 0)
BEGIN
  INSERT INTO audit_log (id, tenant_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, changes, request_id, write_id)
  SELECT 'aud_' || lower(hex(randomblob(16))), c.tenant_id, c.at, c.actor_type, c.actor_id, c.actor_label, c.action,
    'export', OLD.id,
    json_patch('{}', json_object(
      'kind', json(iif(OLD.kind IS NOT NULL, json_array(OLD.kind, NULL), NULL)),
      'cohort_id', json(iif(OLD.cohort_id IS NOT NULL, json_array(OLD.cohort_id, NULL), NULL)),
      'period_from', json(iif(OLD.period_from IS NOT NULL, json_array(OLD.period_from, NULL), NULL)),
      'period_to', json(iif(OLD.period_to IS NOT NULL, json_array(OLD.period_to, NULL), NULL)),
      'status', json(iif(OLD.status IS NOT NULL, json_array(OLD.status, NULL), NULL)),
      'created_by', json(iif(OLD.created_by IS NOT NULL, json_array(OLD.created_by, NULL), NULL)))),
    c.request_id, c.write_id
  FROM audit_context c WHERE instr(c.tables, ',export_jobs,') > 0
  ON CONFLICT (write_id, target_type, target_id) DO UPDATE SET changes = (SELECT json_group_object(key, json(value)) FROM (
      SELECT n.key AS key, iif(o.key IS NULL, n.value, json_array(json(o.value -> 0), json(n.value -> 1))) AS value
        FROM json_each(excluded.changes) n LEFT JOIN json_each(audit_log.changes) o ON o.key = n.key
      UNION ALL
      SELECT o.key, o.value FROM json_each(audit_log.changes) o
        WHERE NOT EXISTS (SELECT 1 FROM json_each(excluded.changes) n WHERE n.key = o.key)));
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
CREATE TRIGGER `customers_cohorts_on_update` AFTER UPDATE OF xp_balance, lifetime_xp, status, country_code, tier_held, tier_id ON `customers` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.subject IN (
    SELECT 'xp_balance' WHERE OLD.xp_balance IS NOT NEW.xp_balance
    UNION ALL SELECT 'lifetime_xp' WHERE OLD.lifetime_xp IS NOT NEW.lifetime_xp
    UNION ALL SELECT 'tier' WHERE OLD.lifetime_xp IS NOT NEW.lifetime_xp OR OLD.tier_held IS NOT NEW.tier_held OR OLD.tier_id IS NOT NEW.tier_id
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
-- src/db/sql/tier-retention.sql
CREATE TRIGGER `customers_tier_held_on_insert` AFTER INSERT ON `customers`
WHEN EXISTS (SELECT 1 FROM program_settings s WHERE s.tenant_id = NEW.tenant_id AND s.tiers_basis = 'earned_in_period'
    AND s.tiers_period_months IS NOT NULL)
BEGIN
  UPDATE customers SET tier_held = 1,
    tier_id = (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold <= 0)
  WHERE id = NEW.id;
END;
--> statement-breakpoint
-- src/db/sql/tier-retention.sql
CREATE TRIGGER `point_lots_tier_upgrade_on_insert` AFTER INSERT ON `point_lots`
WHEN NEW.status IN ('active', 'spent') AND NEW.internal_transaction_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM customers c INDEXED BY customers_tier_held WHERE c.id = NEW.user_id AND c.tier_held = 1)
BEGIN
  UPDATE customers SET tier_id = u.tier_id, tier_valid_until = u.valid_until
  FROM (SELECT tier_id, valid_until FROM customer_tier_upgrades WHERE lot_id = NEW.id) u
  WHERE customers.id = NEW.user_id AND u.tier_id IS NOT NULL;
END;
--> statement-breakpoint
-- src/db/sql/tier-retention.sql
CREATE TRIGGER `point_lots_tier_upgrade_on_activation` AFTER UPDATE OF status ON `point_lots`
WHEN OLD.status = 'pending' AND NEW.status IN ('active', 'spent') AND NEW.internal_transaction_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM customers c INDEXED BY customers_tier_held WHERE c.id = NEW.user_id AND c.tier_held = 1)
BEGIN
  UPDATE customers SET tier_id = u.tier_id, tier_valid_until = u.valid_until
  FROM (SELECT tier_id, valid_until FROM customer_tier_upgrades WHERE lot_id = NEW.id) u
  WHERE customers.id = NEW.user_id AND u.tier_id IS NOT NULL;
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
CREATE TRIGGER `webhook_customer_tier_changed` AFTER UPDATE OF lifetime_xp, tier_held, tier_id ON `customers`
WHEN (OLD.lifetime_xp IS NOT NEW.lifetime_xp OR OLD.tier_held IS NOT NEW.tier_held OR OLD.tier_id IS NOT NEW.tier_id)
  AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.tier_changed')
  AND (CASE WHEN OLD.tier_held THEN OLD.tier_id ELSE (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = OLD.tenant_id
      AND t.min_xp_threshold <= OLD.lifetime_xp AND (t.below_lifetime_xp IS NULL OR OLD.lifetime_xp < t.below_lifetime_xp)) END)
    IS NOT (CASE WHEN NEW.tier_held THEN NEW.tier_id ELSE (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = NEW.tenant_id
      AND t.min_xp_threshold <= NEW.lifetime_xp AND (t.below_lifetime_xp IS NULL OR NEW.lifetime_xp < t.below_lifetime_xp)) END)
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes, reason)
  SELECT 'evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.tier_changed', NEW.id,
    json_object('tier', json(coalesce((SELECT json_object('id', t.id, 'tier_name', t.tier_name) FROM tier_rules t WHERE t.id = x.before), 'null'))),
    CASE WHEN coalesce((SELECT t.min_xp_threshold FROM tier_rules t WHERE t.id = x.after), -1)
      > coalesce((SELECT t.min_xp_threshold FROM tier_rules t WHERE t.id = x.before), -1) THEN 'upgrade' ELSE 'review' END
  FROM (SELECT (CASE WHEN OLD.tier_held THEN OLD.tier_id ELSE (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = OLD.tenant_id
      AND t.min_xp_threshold <= OLD.lifetime_xp AND (t.below_lifetime_xp IS NULL OR OLD.lifetime_xp < t.below_lifetime_xp)) END) AS before,
    (CASE WHEN NEW.tier_held THEN NEW.tier_id ELSE (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = NEW.tenant_id
      AND t.min_xp_threshold <= NEW.lifetime_xp AND (t.below_lifetime_xp IS NULL OR NEW.lifetime_xp < t.below_lifetime_xp)) END) AS after) x;
END;
--> statement-breakpoint
-- src/db/sql/webhook-outbox.sql
CREATE TRIGGER `webhook_customer_erased` AFTER UPDATE OF erased_at ON `customers`
WHEN OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'customer.erased')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'customer.erased', NEW.id, NULL);
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
