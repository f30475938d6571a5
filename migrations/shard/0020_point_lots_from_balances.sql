-- Every existing balance becomes lots that add up to it exactly (docs/POINTS.md, "Migration"):
-- a customer's spendable balance is one active lot without expiry, and each credit still waiting for
-- its mint is a pending lot that its completion activates. Ids are made in SQL like the triggers'.
INSERT INTO point_lots (id, tenant_id, user_id, internal_transaction_id, amount, remaining, reversed, status, available_at, expires_at, activated_at, created_at, updated_at)
SELECT 'lot_' || lower(hex(randomblob(16))), c.tenant_id, c.id, NULL, c.xp_balance, c.xp_balance, 0, 'active',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM customers c WHERE c.xp_balance > 0;
--> statement-breakpoint
INSERT INTO point_lots (id, tenant_id, user_id, internal_transaction_id, amount, remaining, reversed, status, available_at, expires_at, activated_at, created_at, updated_at)
SELECT 'lot_' || lower(hex(randomblob(16))), t.tenant_id, t.user_id, t.id, t.amount, t.amount, 0, 'pending',
  t.created_at, NULL, t.created_at, t.created_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM internal_transactions t
WHERE t.amount > 0 AND t.type <> 'xp_redeem' AND t.status IN ('initialized', 'pending') AND t.user_id IS NOT NULL;
