-- Tier placement (CONTRACT.md, XP ledger; docs/decisions/0016-tiers.md): a customer's tier is the
-- tier with the highest min_xp_threshold not above its lifetime_xp. Among tiers of one threshold
-- the oldest rule (then the smaller id) places the customer and the others place no one.
-- src/domain/tiers.ts is the same rule in TypeScript (tierForLifetimeXp, unit-tested, run over this
-- view's ladder by src/data/customer-tiers.ts for the customer records the API returns). In SQL
-- because the cohort evaluator (cohort-evaluation.sql) and the customer.tier_changed event
-- (webhook-outbox.sql) decide a customer's tier inside the transaction of the write that moves its
-- lifetime XP; every trigger and view that needs a tier reads it here. A tenant on tiers earned in a
-- period holds each customer's tier instead (customers.tier_held, tier-retention.sql).

-- Each tier that places customers with the band of lifetime XP it places: from min_xp_threshold up
-- to the next higher threshold, excluded (below_lifetime_xp, null for the top tier). Bands never
-- overlap: the tier of X is the row with min_xp_threshold <= X and X below below_lifetime_xp.
CREATE VIEW `tier_placements` AS
SELECT t.tenant_id, t.id AS tier_id, t.tier_name, t.min_xp_threshold,
  (SELECT min(h.min_xp_threshold) FROM tier_rules h WHERE h.tenant_id = t.tenant_id AND h.min_xp_threshold > t.min_xp_threshold) AS below_lifetime_xp
FROM tier_rules t
WHERE NOT EXISTS (SELECT 1 FROM tier_rules o WHERE o.tenant_id = t.tenant_id AND o.min_xp_threshold = t.min_xp_threshold
  AND (o.created_at < t.created_at OR (o.created_at = t.created_at AND o.id < t.id)));
