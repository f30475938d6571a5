-- The point lifecycle in SQL (docs/POINTS.md; CONTRACT.md, Point lifecycle). Credits write their
-- lot in their own batch (data/point-lots.ts: its times come from the tenant's settings); these
-- triggers keep every lot in step with the ledger whatever code path moves it (a request, the
-- settlement consumer, a cron), inside the same transaction: for every customer at every moment,
-- xp_balance = the active lots' remaining and pending_xp = the pending lots' remaining.

-- A debit takes from the customer's active lots at once (as it reserves the balance at once),
-- earliest expires_at first, lots without expiry last, then the oldest; a reversal takes from the
-- lot of the credit it reverses first. The running sum of the lots before each one decides what it
-- gives: lots are taken while the debit is not yet covered. Expiry takes its own lots (jobs), and a
-- pending reversal waits with its pending credit.
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
-- Giving back what a debit took: to the lots it took from, active again (a lot past its expiry
-- expires again at the next run), and, when asked, what it took from before lots existed as a new
-- lot without expiry. The row is only the call: it is gone once its trigger ran.
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
-- A debit that fails (settlement) gives its XP back. An expiry whose burn fails too: its lots expire
-- again at the next run, so the burn is retried. A reversal always took from lots (it never takes
-- more than the balance); a pending one, failing with its pending credit, took nothing.
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
-- A redemption's refund (a positive xp_redeem) gives back what the redemption's debit took once it
-- completes: written completed, or completing when its mint settles.
CREATE TRIGGER `point_lots_refund_inserted` AFTER INSERT ON `internal_transactions`
WHEN NEW.amount > 0 AND NEW.type = 'xp_redeem' AND NEW.status = 'completed'
BEGIN
  INSERT INTO lot_givebacks (debit_transaction_id, tenant_id, user_id, amount, at, rest_as_lot)
  SELECT t.id, NEW.tenant_id, NEW.user_id, NEW.amount, NEW.updated_at, 1 FROM internal_transactions t
  WHERE t.tenant_id = NEW.tenant_id AND t.redemption_id = NEW.redemption_id AND t.type = 'xp_redeem' AND t.amount < 0;
END;
--> statement-breakpoint
CREATE TRIGGER `point_lots_refund_settled` AFTER UPDATE OF status ON `internal_transactions`
WHEN NEW.status = 'completed' AND OLD.status <> 'completed' AND NEW.amount > 0 AND NEW.type = 'xp_redeem'
BEGIN
  INSERT INTO lot_givebacks (debit_transaction_id, tenant_id, user_id, amount, at, rest_as_lot)
  SELECT t.id, NEW.tenant_id, NEW.user_id, NEW.amount, NEW.updated_at, 1 FROM internal_transactions t
  WHERE t.tenant_id = NEW.tenant_id AND t.redemption_id = NEW.redemption_id AND t.type = 'xp_redeem' AND t.amount < 0;
END;
--> statement-breakpoint
-- A credit completes (at once, at the end of its pending period, or when its mint settles): its lot
-- becomes spendable, and the reversals that waited with it complete too.
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
-- A credit fails (its mint failed, or it was canceled while pending): its lot never counts.
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
-- xp.expiring (once per lot, expiry_notice before expiry): the notice job stamps notice_sent_at;
-- only a lot still holding points is announced.
CREATE TRIGGER `webhook_xp_expiring` AFTER UPDATE OF notice_sent_at ON `point_lots`
WHEN OLD.notice_sent_at IS NULL AND NEW.notice_sent_at IS NOT NULL AND NEW.status = 'active' AND NEW.remaining > 0
  AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.expiring')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.expiring', NEW.id, NULL);
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_xp_expired` AFTER INSERT ON `internal_transactions`
WHEN NEW.type = 'xp_expire' AND EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.event_types) j
    WHERE e.tenant_id = NEW.tenant_id AND e.status = 'enabled' AND j.value = 'xp.expired')
BEGIN
  INSERT INTO webhook_events (id, tenant_id, type, resource_id, previous_attributes)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.tenant_id, 'xp.expired', NEW.id, NULL);
END;
