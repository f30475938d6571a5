-- Cohort membership kept exact by the database itself
-- (docs/decisions/0047-cohort-membership-maintained.md). Every write that can move a customer in or
-- out of a cohort (customers, attribute values, attribute definitions, tiers) re-evaluates, in its
-- own transaction, only the cohorts whose rules name what changed: for one customer at once
-- (customer_refreshes), over many customers in chunks (cohort_refreshes, cohort-recomputes.sql).
-- Reading a cohort's members or count is then a read of cohort_memberships and compiled_cohorts. In
-- SQL so that no code path that writes can forget it.

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
-- A new customer is evaluated against every compiled cohort of its tenant.
CREATE TRIGGER `customers_cohorts_on_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO customer_refreshes (tenant_id, customer_id, cohort_ids)
  SELECT NEW.tenant_id, NEW.id, json_group_array(k.cohort_id) FROM compiled_cohorts k WHERE k.tenant_id = NEW.tenant_id
  HAVING count(*) > 0;
END;
--> statement-breakpoint
-- A changed field re-evaluates the cohorts with a predicate on it (tier follows lifetime_xp, or the
-- held tier: tier-retention.sql).
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
CREATE TRIGGER `customers_cohorts_on_delete` AFTER DELETE ON `customers` BEGIN
  DELETE FROM cohort_memberships WHERE tenant_id = OLD.tenant_id AND customer_id = OLD.id;
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
-- above its lifetime XP, tier-placement.sql, so no one outside that band changes tier).
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
