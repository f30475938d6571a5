-- The daily gas budget (docs/decisions/0029-gas-ceilings-and-daily-budget.md;
-- services/settlement.ts reserves it): once a reservation of the tenant did not fit today, no new
-- onchain operation of the tenant is written until the UTC day ends or the budget is raised.
-- Tenants without onchain work never insert here, so they never meet it. In SQL so that every path
-- that writes an onchain operation is refused in its own batch (data/gas-budget.ts recognises the
-- abort: 429 ONCHAIN_BUDGET_EXHAUSTED).

CREATE TRIGGER `onchain_operations_gas_budget` BEFORE INSERT ON `onchain_operations`
WHEN EXISTS (SELECT 1 FROM tenant_gas_usage g
    WHERE g.tenant_id = NEW.tenant_id AND g.day = strftime('%Y-%m-%d', 'now') AND g.exhausted = 1)
BEGIN
  SELECT RAISE(ABORT, 'onchain_gas_budget_exhausted');
END;
