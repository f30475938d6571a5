-- Re-evaluations over many customers run in bounded chunks (docs/DECISIONS.md, "Cohorts at scale").
-- A write that affects a cohort over many customers (its rules saved, a definition created or
-- deleted, the tier ladder changed, the cohort deleted) brings the cohort's compiled predicates and
-- dead keys up to date in its own transaction, as before, and records a `cohort_recomputes` job
-- instead of evaluating every customer there. Each chunk of the job, a `cohort_refreshes` row with
-- positions, re-evaluates a bounded number of customers in its own transaction and moves the
-- job's cursor on (services/cohort-recomputes.ts drives them). Customer writes meanwhile keep
-- re-evaluating the customers they touch (migrations/0004), so when the job is done every
-- membership is exact.
DROP TRIGGER `cohort_refresh`;
--> statement-breakpoint
-- A write's request: forms and dead keys now; the re-evaluation merged into the cohort's job, which
-- starts over (customers already done were evaluated before this change). Bands merge into the
-- band covering both; `everyone` wins over `members`. Nothing to do for a `members` request when
-- the cohort has no member. Unlike migrations/0004, each statement reads the one cohort's rows.
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
-- A chunk: the candidates at positions from_seq..to_seq leave the cohort if its rules no longer hold
-- (all of them when it matches nobody, or no longer exists) and join it if they now do; then the
-- job's cursor moves past them, and the job is gone once past its last position.
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
-- A deleted cohort takes its compiled rules at once and its memberships in chunks (there can be a
-- tenant's every customer): a `members` job of a cohort that matches no one any more.
DROP TRIGGER `cohorts_compiled_on_delete`;
--> statement-breakpoint
CREATE TRIGGER `cohorts_compiled_on_delete` AFTER DELETE ON `cohorts` BEGIN
  DELETE FROM compiled_cohorts WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.id;
  DELETE FROM cohort_predicates WHERE tenant_id = OLD.tenant_id AND cohort_id = OLD.id;
  INSERT INTO cohort_refreshes (tenant_id, cohort_id, candidates) VALUES (OLD.tenant_id, OLD.id, 'members');
END;
