import type { AttributeDefinition } from '../db/schema';
import { renderAttributeValue, type StoredValue } from '../domain/attributes';
import type { AttributeDefinitionView, AttributeValueEntryView } from '../schemas/attribute';

export function toAttributeDefinitionView(definition: AttributeDefinition): AttributeDefinitionView {
  return {
    id: definition.id,
    key: definition.key,
    type: definition.type,
    created_at: definition.createdAt,
    updated_at: definition.updatedAt,
  };
}

/** One entry per definition; `value` null where the customer has none. */
export function toAttributeValueEntries(
  definitions: readonly AttributeDefinition[],
  values: readonly (StoredValue & { definitionId: string })[],
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
