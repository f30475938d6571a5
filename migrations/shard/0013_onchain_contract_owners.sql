-- One tenant per contract (docs/DECISIONS.md, "Onchain: one tenant per contract"). The relayer can
-- mint on every contract the platform deployed or a tenant registered, so a (chain, address) held by
-- one tenant is refused to every other: checked before any write of an address, whatever code path
-- writes it, and claimed in the same transaction. A deploy claims its address when its transaction
-- is signed (data/settlement.ts), before the contract exists.
CREATE TRIGGER `onchain_assets_contract_owner_on_insert` BEFORE INSERT ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL AND EXISTS (SELECT 1 FROM onchain_contracts c
    WHERE c.chain_id = NEW.chain_id AND c.address = NEW.asset_address AND c.tenant_id <> NEW.tenant_id)
BEGIN
  SELECT RAISE(ABORT, 'onchain_contract_taken');
END;
--> statement-breakpoint
CREATE TRIGGER `onchain_assets_contract_owner_on_update` BEFORE UPDATE OF asset_address, chain_id ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL AND EXISTS (SELECT 1 FROM onchain_contracts c
    WHERE c.chain_id = NEW.chain_id AND c.address = NEW.asset_address AND c.tenant_id <> NEW.tenant_id)
BEGIN
  SELECT RAISE(ABORT, 'onchain_contract_taken');
END;
--> statement-breakpoint
CREATE TRIGGER `onchain_assets_contract_claim_on_insert` AFTER INSERT ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO onchain_contracts (chain_id, address, tenant_id, origin) VALUES (NEW.chain_id, NEW.asset_address, NEW.tenant_id, 'registered');
END;
--> statement-breakpoint
CREATE TRIGGER `onchain_assets_contract_claim_on_update` AFTER UPDATE OF asset_address ON `onchain_assets`
WHEN NEW.asset_address IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO onchain_contracts (chain_id, address, tenant_id, origin) VALUES (NEW.chain_id, NEW.asset_address, NEW.tenant_id, 'deployed');
END;
--> statement-breakpoint
-- Contracts registered before this migration: the platform's deploys first, then the earliest
-- registration. A later registration of the same contract by another tenant keeps its asset row but
-- holds no claim, so settlement refuses to mint or burn on it (services/settlement.ts).
INSERT OR IGNORE INTO onchain_contracts (chain_id, address, tenant_id, origin, created_at)
SELECT chain_id, asset_address, tenant_id, CASE WHEN deploy_tx_hash IS NULL THEN 'registered' ELSE 'deployed' END, created_at
FROM onchain_assets WHERE asset_address IS NOT NULL
ORDER BY (deploy_tx_hash IS NULL), created_at, id;
--> statement-breakpoint
-- The daily gas budget (services/settlement.ts): once a reservation of the tenant did not fit today,
-- no new onchain operation of the tenant is written until the UTC day ends or the budget is raised.
-- Tenants without onchain work never insert here, so they never meet it.
CREATE TRIGGER `onchain_operations_gas_budget` BEFORE INSERT ON `onchain_operations`
WHEN EXISTS (SELECT 1 FROM tenant_gas_usage g
    WHERE g.tenant_id = NEW.tenant_id AND g.day = strftime('%Y-%m-%d', 'now') AND g.exhausted = 1)
BEGIN
  SELECT RAISE(ABORT, 'onchain_gas_budget_exhausted');
END;
