-- No customer attribute value without its definition
-- (docs/decisions/0050-attribute-delete-race.md). In SQL because a definition can be deleted
-- between a request's checks and its write: the check must run in the transaction of the write.

-- A value written after its definition was deleted aborts its batch
-- (services/customer-attributes.ts answers 422 for the key).
CREATE TRIGGER `customer_attribute_values_need_definition` BEFORE INSERT ON `customer_attribute_values`
WHEN NOT EXISTS (SELECT 1 FROM attribute_definitions d WHERE d.tenant_id = NEW.tenant_id AND d.id = NEW.definition_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute_definition_missing');
END;
