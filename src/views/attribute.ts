import type { AttributeDefinition, AttributeType, CustomerAttributeValue } from '../db/schema';
import type { AttributeDefinitionView, AttributeValueEntryView } from '../schemas/attribute';

type StoredValue = Pick<CustomerAttributeValue, 'definitionId' | 'valueText' | 'valueNumber'>;

export function toAttributeDefinitionView(definition: AttributeDefinition): AttributeDefinitionView {
  return {
    id: definition.id,
    key: definition.key,
    type: definition.type,
    created_at: definition.createdAt,
    updated_at: definition.updatedAt,
  };
}

/**
 * The API renders every value as a string (spec: attribute value entry): numbers in decimal,
 * booleans "true"/"false", string lists as their JSON array text, dates and datetimes as stored.
 */
export function renderAttributeValue(type: AttributeType, stored: Omit<StoredValue, 'definitionId'>): string | null {
  if (type === 'number') return stored.valueNumber === null ? null : String(stored.valueNumber);
  if (type === 'boolean') return stored.valueNumber === null ? null : String(stored.valueNumber === 1);
  return stored.valueText;
}

/** One entry per definition; `value` null where the customer has none. */
export function toAttributeValueEntries(
  definitions: readonly AttributeDefinition[],
  values: readonly StoredValue[],
): AttributeValueEntryView[] {
  const byDefinition = new Map(values.map((value) => [value.definitionId, value]));
  return definitions.map((definition) => {
    const stored = byDefinition.get(definition.id);
    return {
      definition_id: definition.id,
      key: definition.key,
      type: definition.type,
      value: stored ? renderAttributeValue(definition.type, stored) : null,
    };
  });
}
