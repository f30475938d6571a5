-- An XP token added to a live program (docs/DECISIONS.md, "An XP token added to a live program").
-- Each time the asset keyed `xp` becomes active (registered active, its deploy succeeded, or made
-- active again after `inactive`), a new opening starts: the minute cron mints every customer's XP
-- that the token does not mirror yet, in chunks from the cursor (services/xp-openings.ts). Whatever
-- code path activates the token, the opening starts in the same transaction.
CREATE TRIGGER `xp_token_opening_on_insert` AFTER INSERT ON `onchain_assets`
WHEN NEW.key = 'xp' AND NEW.status = 'active'
BEGIN
  UPDATE onchain_assets SET opening_epoch = opening_epoch + 1, opening_cursor = 0, opening_completed_at = NULL WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `xp_token_opening_on_activation` AFTER UPDATE OF status ON `onchain_assets`
WHEN NEW.key = 'xp' AND NEW.status = 'active' AND OLD.status IS NOT 'active'
BEGIN
  UPDATE onchain_assets SET opening_epoch = opening_epoch + 1, opening_cursor = 0, opening_completed_at = NULL WHERE id = NEW.id;
END;
--> statement-breakpoint
-- XP tokens already active when this migration runs start their first opening too: customers who
-- earned before them get their balance minted (the defect this fixes).
UPDATE onchain_assets SET opening_epoch = 1, opening_cursor = 0, opening_completed_at = NULL
WHERE key = 'xp' AND status = 'active' AND opening_epoch = 0;
