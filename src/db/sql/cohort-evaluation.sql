-- The cohort evaluator (docs/decisions/0047-cohort-membership-maintained.md): whether a cohort's
-- compiled rules hold for a customer, one predicate at a time. A cohort's predicates are compiled
-- from its rules (src/domain/cohort-rules.ts, src/data/cohort-compile.ts); these views read them
-- against the customer's row, attribute values and tier (tier-placement.sql, or held:
-- tier-retention.sql). In SQL because
-- memberships are kept exact by the database itself: the triggers of cohort-membership.sql and
-- cohort-recomputes.sql evaluate them in the transaction of each write.

-- One predicate of one cohort for one customer: the value the predicate reads (`actual`: an
-- attribute value, a customer field, or the customer's tier) and the operand it compares with.
-- Both are null where absent. Used only through cohort_predicate_results.
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
