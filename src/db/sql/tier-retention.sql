-- Tiers on XP earned in a period (CONTRACT.md, Point lifecycle; docs/POINTS.md, "Tiers on XP earned
-- in a period"; docs/decisions/0102-tier-retention.md). A customer of a tenant on
-- `earned_in_period` holds its tier (`customers.tier_held`, `tier_id`) until `tier_valid_until`:
-- upgrades apply at once, here, in the transaction of the credit; only the review job
-- (data/tier-reviews.ts, reading customer_tier_reviews) lowers a tier. Ladder edits never touch a
-- held tier. The XP earned in the period before an instant T: the credit lots that became spendable
-- after T minus `tiers_period` (SQLite date arithmetic in UTC, months clamped to the month's last day)
-- and by T, less what reversals took back. A tier reached at T is valid until the first review date
-- (tier_review_dates, on the tenant's calendar) whose period starts at or after T; a tier at 0 XP,
-- which no review can take away, has no date.

-- A customer created under earned_in_period holds the tier 0 XP places it in, if any: a tier at 0 XP
-- has no review date (no review can take it away).
CREATE TRIGGER `customers_tier_held_on_insert` AFTER INSERT ON `customers`
WHEN EXISTS (SELECT 1 FROM program_settings s WHERE s.tenant_id = NEW.tenant_id AND s.tiers_basis = 'earned_in_period'
    AND s.tiers_period_months IS NOT NULL)
BEGIN
  UPDATE customers SET tier_held = 1,
    tier_id = (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = NEW.tenant_id AND t.min_xp_threshold <= 0)
  WHERE id = NEW.id;
END;
--> statement-breakpoint
-- An upgrade at once: a credit lot of a held customer becomes spendable (written active, or
-- activated), and the XP earned in the period before it places the customer above its tier.
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
CREATE TRIGGER `point_lots_tier_upgrade_on_insert` AFTER INSERT ON `point_lots`
WHEN NEW.status IN ('active', 'spent') AND NEW.internal_transaction_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM customers c INDEXED BY customers_tier_held WHERE c.id = NEW.user_id AND c.tier_held = 1)
BEGIN
  UPDATE customers SET tier_id = u.tier_id, tier_valid_until = u.valid_until
  FROM (SELECT tier_id, valid_until FROM customer_tier_upgrades WHERE lot_id = NEW.id) u
  WHERE customers.id = NEW.user_id AND u.tier_id IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `point_lots_tier_upgrade_on_activation` AFTER UPDATE OF status ON `point_lots`
WHEN OLD.status = 'pending' AND NEW.status IN ('active', 'spent') AND NEW.internal_transaction_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM customers c INDEXED BY customers_tier_held WHERE c.id = NEW.user_id AND c.tier_held = 1)
BEGIN
  UPDATE customers SET tier_id = u.tier_id, tier_valid_until = u.valid_until
  FROM (SELECT tier_id, valid_until FROM customer_tier_upgrades WHERE lot_id = NEW.id) u
  WHERE customers.id = NEW.user_id AND u.tier_id IS NOT NULL;
END;
--> statement-breakpoint
-- The review of a held tier at its `tier_valid_until` (the review date R): the XP earned in the
-- period before R places the customer; at or above its tier it keeps it (or the higher one),
-- below it drops by the tenant's `tiers_downgrade`: `none` keeps it, `one_step` takes the next
-- tier down, `recalculate` the tier the XP places. A kept tier is valid until the first review
-- whose period starts at or after R; no tier (or a tier at 0 XP), no date.
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
