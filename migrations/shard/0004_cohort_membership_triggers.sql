-- Cohort membership kept exact by the database itself (docs/DECISIONS.md, "Cohorts at scale").
-- Every write that can move a customer in or out of a cohort (customers, attribute values,
-- attribute definitions, tiers) re-evaluates, in its own transaction, only the cohorts whose
-- rules name what changed, for only the customers it touched. Reading a cohort's members or
-- count is then a read of cohort_memberships and compiled_cohorts.

-- The evaluator, one predicate of one cohort for one customer: the value the predicate reads
-- (`actual`: an attribute value, a customer field, or the customer's tier) and the operand it
-- compares with. Both are null where absent. Used only through cohort_predicate_results.
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
    -- The highest threshold not above lifetime_xp; among equal thresholds the oldest (data/customer-tiers.ts).
    WHEN 'tier' THEN (
      SELECT t.id FROM tier_rules t
      WHERE t.tenant_id = c.tenant_id AND t.min_xp_threshold <= c.lifetime_xp
      ORDER BY t.min_xp_threshold DESC, t.created_at ASC, t.id ASC LIMIT 1)
  END AS actual,
  CASE p.storage WHEN 'number' THEN p.operand_number ELSE p.operand_text END AS operand
FROM cohort_predicates p JOIN customers c ON c.tenant_id = p.tenant_id;
--> statement-breakpoint
-- 1 when the predicate holds, else 0 (never null: `neq` on a missing value is 0, not unknown).
-- A predicate without a storage never holds, not even `not_exists`: an attribute predicate whose
-- key has no current definition of a type it fits (a dead key never matches).
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
-- The (cohort, customer) pairs whose rules hold now. Always queried for one cohort and one customer
-- or one cohort: `and` stops at the first predicate that fails, `or` at the first that holds.
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
-- Compiled cohorts whose rules can hold for no one: an `and` with a predicate that never holds, an
-- `or` whose predicates all never hold (after a definition is deleted, say). Emptied without
-- evaluating anyone.
CREATE VIEW `cohorts_matching_nobody` AS
SELECT k.tenant_id, k.cohort_id FROM compiled_cohorts k
WHERE CASE k.operator
  WHEN 'and' THEN EXISTS (SELECT 1 FROM cohort_predicates p WHERE p.tenant_id = k.tenant_id AND p.cohort_id = k.cohort_id AND p.storage IS NULL)
  ELSE NOT EXISTS (SELECT 1 FROM cohort_predicates p WHERE p.tenant_id = k.tenant_id AND p.cohort_id = k.cohort_id AND p.storage IS NOT NULL)
END;
--> statement-breakpoint
-- member_count follows cohort_memberships row by row.
CREATE TRIGGER `cohort_memberships_counted_in` AFTER INSERT ON `cohort_memberships` BEGIN
  UPDATE compiled_cohorts SET member_count = member_count + 1 WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id;
END;
--> statement-breakpoint
CREATE TRIGGER `cohort_memberships_counted_out` AFTER DELETE ON `cohort_memberships` BEGIN
  UPDATE compiled_cohorts SET member_count = member_count - 1 WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.cohort_id;
END;
--> statement-breakpoint
-- One customer for the cohorts listed: it leaves those whose rules no longer hold and joins those
-- whose rules now do. Each side evaluates a cohort's rules only where the membership could change.
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
-- One cohort for many customers (its rules were saved, or a definition or tier changed): first
-- its attribute predicates take the form of their key's current definition (or none), and its
-- dead keys are listed again; then the candidates are re-evaluated.
CREATE TRIGGER `cohort_refresh` AFTER INSERT ON `cohort_refreshes` BEGIN
  UPDATE cohort_predicates SET (definition_id, storage, operand_text, operand_number, operand_list) = (
    SELECT d.id, json_extract(cohort_predicates.forms, '$.' || d.type || '.storage'), json_extract(cohort_predicates.forms, '$.' || d.type || '.text'),
      json_extract(cohort_predicates.forms, '$.' || d.type || '.number'), json_extract(cohort_predicates.forms, '$.' || d.type || '.list')
    FROM attribute_definitions d
    WHERE d.tenant_id = cohort_predicates.tenant_id AND d.key = cohort_predicates.attribute_key AND json_type(cohort_predicates.forms, '$.' || d.type) IS NOT NULL)
  WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id AND subject = 'attribute';
  UPDATE compiled_cohorts SET dead_keys = (
    SELECT json_group_array(attribute_key) FROM (
      SELECT p.attribute_key, min(p.position) AS first_position FROM cohort_predicates p
      WHERE p.tenant_id = NEW.tenant_id AND p.cohort_id = NEW.cohort_id AND p.subject = 'attribute'
        AND NOT EXISTS (SELECT 1 FROM attribute_definitions d WHERE d.tenant_id = p.tenant_id AND d.key = p.attribute_key)
      GROUP BY p.attribute_key ORDER BY first_position))
  WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id;
  DELETE FROM cohort_memberships
  WHERE tenant_id = NEW.tenant_id AND cohort_id = NEW.cohort_id AND NEW.candidates <> 'none'
    AND (NEW.from_lifetime_xp IS NULL OR customer_id IN (
      SELECT c.id FROM customers c WHERE c.tenant_id = NEW.tenant_id
        AND c.lifetime_xp >= NEW.from_lifetime_xp AND (NEW.below_lifetime_xp IS NULL OR c.lifetime_xp < NEW.below_lifetime_xp)))
    AND (EXISTS (SELECT 1 FROM cohorts_matching_nobody n WHERE n.tenant_id = NEW.tenant_id AND n.cohort_id = NEW.cohort_id)
      OR NOT EXISTS (SELECT 1 FROM cohort_matches m WHERE m.tenant_id = NEW.tenant_id AND m.cohort_id = NEW.cohort_id AND m.customer_id = cohort_memberships.customer_id));
  INSERT INTO cohort_memberships (tenant_id, cohort_id, customer_id, customer_created_at)
  SELECT c.tenant_id, NEW.cohort_id, c.id, c.created_at FROM customers c
  WHERE c.tenant_id = NEW.tenant_id AND NEW.candidates = 'everyone'
    AND (NEW.from_lifetime_xp IS NULL OR c.lifetime_xp >= NEW.from_lifetime_xp)
    AND (NEW.below_lifetime_xp IS NULL OR c.lifetime_xp < NEW.below_lifetime_xp)
    AND NOT EXISTS (SELECT 1 FROM cohorts_matching_nobody n WHERE n.tenant_id = NEW.tenant_id AND n.cohort_id = NEW.cohort_id)
    AND NOT EXISTS (SELECT 1 FROM cohort_memberships x WHERE x.tenant_id = NEW.tenant_id AND x.cohort_id = NEW.cohort_id AND x.customer_id = c.id)
    AND EXISTS (SELECT 1 FROM cohort_matches m WHERE m.tenant_id = NEW.tenant_id AND m.cohort_id = NEW.cohort_id AND m.customer_id = c.id);
  DELETE FROM cohort_refreshes WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
-- A new customer is evaluated against every compiled cohort of its tenant.
CREATE TRIGGER `customers_cohorts_on_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.id, json_group_array(k.cohort_id) FROM compiled_cohorts k WHERE k.tenant_id = NEW.tenant_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- A changed field re-evaluates the cohorts with a predicate on it (tier follows lifetime_xp).
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
CREATE TRIGGER `customers_cohorts_on_delete` AFTER DELETE ON `customers` BEGIN
  DELETE FROM cohort_memberships WHERE tenant_id = OLD.tenant_id AND customer_id = OLD.id;
END;
--> statement-breakpoint
-- No value without a definition: a value written after its definition was deleted aborts its
-- batch (services/customer-attributes.ts answers 422 for the key).
CREATE TRIGGER `customer_attribute_values_need_definition` BEFORE INSERT ON `customer_attribute_values`
WHEN NOT EXISTS (SELECT 1 FROM attribute_definitions d WHERE d.tenant_id = NEW.tenant_id AND d.id = NEW.definition_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute_definition_missing');
END;
--> statement-breakpoint
-- A value written or cleared re-evaluates the cohorts with a predicate on its definition.
CREATE TRIGGER `customer_attribute_values_cohorts_on_insert` AFTER INSERT ON `customer_attribute_values` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.user_id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.definition_id = NEW.definition_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
CREATE TRIGGER `customer_attribute_values_cohorts_on_update` AFTER UPDATE OF value_text, value_number ON `customer_attribute_values`
WHEN OLD.value_text IS NOT NEW.value_text OR OLD.value_number IS NOT NEW.value_number
BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.user_id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.definition_id = NEW.definition_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
CREATE TRIGGER `customer_attribute_values_cohorts_on_delete` AFTER DELETE ON `customer_attribute_values` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT OLD.tenant_id, OLD.user_id, json_group_array(DISTINCT p.cohort_id) FROM cohort_predicates p
  WHERE p.tenant_id = OLD.tenant_id AND p.definition_id = OLD.definition_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- A key defined (again): its predicates take the form of the new type. A new definition has no
-- values yet, so only a `not_exists` predicate on it can start to hold: only cohorts with one are
-- re-evaluated over every customer, the others only get their dead keys listed again.
CREATE TRIGGER `attribute_definitions_cohorts_on_insert` AFTER INSERT ON `attribute_definitions` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates)
  SELECT NEW.tenant_id, p.cohort_id,
    CASE WHEN max(p.op = 'not_exists' AND json_type(p.forms, '$.' || NEW.type) IS NOT NULL) THEN 'everyone' ELSE 'none' END
  FROM cohort_predicates p
  WHERE p.tenant_id = NEW.tenant_id AND p.subject = 'attribute' AND p.attribute_key = NEW.key
  GROUP BY p.cohort_id;
END;
--> statement-breakpoint
-- A key deleted: its predicates never hold again, so members can only leave (only they are
-- re-evaluated). Runs before the batch deletes the values, which then re-evaluate nothing.
CREATE TRIGGER `attribute_definitions_cohorts_on_delete` AFTER DELETE ON `attribute_definitions` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates)
  SELECT DISTINCT OLD.tenant_id, p.cohort_id, 'members' FROM cohort_predicates p
  WHERE p.tenant_id = OLD.tenant_id AND p.subject = 'attribute' AND p.attribute_key = OLD.key;
END;
--> statement-breakpoint
-- The tier ladder changed: cohorts with a tier predicate are re-evaluated for the customers whose
-- tier can have changed, those whose lifetime XP lies from the lower of the old and new thresholds
-- up to the next threshold above the higher one (a customer's tier is the highest threshold not
-- above its lifetime XP, so no one outside that band changes tier).
CREATE TRIGGER `tier_rules_cohorts_on_insert` AFTER INSERT ON `tier_rules` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates, from_lifetime_xp, below_lifetime_xp)
  SELECT DISTINCT p.tenant_id, p.cohort_id, 'everyone', NEW.min_xp_threshold,
    (SELECT min(t.min_xp_threshold) FROM tier_rules t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold > NEW.min_xp_threshold)
  FROM cohort_predicates p WHERE p.tenant_id = NEW.tenant_id AND p.subject = 'tier';
END;
--> statement-breakpoint
CREATE TRIGGER `tier_rules_cohorts_on_update` AFTER UPDATE OF min_xp_threshold ON `tier_rules`
WHEN OLD.min_xp_threshold IS NOT NEW.min_xp_threshold
BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates, from_lifetime_xp, below_lifetime_xp)
  SELECT DISTINCT p.tenant_id, p.cohort_id, 'everyone', min(OLD.min_xp_threshold, NEW.min_xp_threshold),
    (SELECT min(t.min_xp_threshold) FROM tier_rules t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold > max(OLD.min_xp_threshold, NEW.min_xp_threshold))
  FROM cohort_predicates p WHERE p.tenant_id = NEW.tenant_id AND p.subject = 'tier';
END;
--> statement-breakpoint
CREATE TRIGGER `tier_rules_cohorts_on_delete` AFTER DELETE ON `tier_rules` BEGIN
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates, from_lifetime_xp, below_lifetime_xp)
  SELECT DISTINCT p.tenant_id, p.cohort_id, 'everyone', OLD.min_xp_threshold,
    (SELECT min(t.min_xp_threshold) FROM tier_rules t WHERE t.tenant_id = OLD.tenant_id AND t.min_xp_threshold > OLD.min_xp_threshold)
  FROM cohort_predicates p WHERE p.tenant_id = OLD.tenant_id AND p.subject = 'tier';
END;
--> statement-breakpoint
-- A deleted cohort takes its compiled rules and memberships with it.
CREATE TRIGGER `cohorts_compiled_on_delete` AFTER DELETE ON `cohorts` BEGIN
  DELETE FROM compiled_cohorts WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.id;
  DELETE FROM cohort_predicates WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.id;
  DELETE FROM cohort_memberships WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.id;
END;
