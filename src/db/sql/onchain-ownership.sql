-- One tenant per contract (docs/decisions/0027-contract-belongs-to-one-tenant.md). The relayer can
-- mint on every contract the platform deployed or a tenant registered, so a (chain, address) held
-- by one tenant is refused to every other: checked before any write of an address and claimed in
-- the same transaction. A deploy claims its address when its transaction is signed
-- (data/settlement.ts), before the contract exists. In SQL so that the check and the claim hold
-- whatever code path writes an address (data/onchain-assets.ts recognises the abort).

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
-- An address written is claimed by its tenant in the same transaction: `registered` when the row is
-- created with it, `deployed` when a deploy sets it (claimed already when signed: nothing changes).
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
