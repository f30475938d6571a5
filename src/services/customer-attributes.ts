import type { Database } from '../db/client';
import { allDefinitionsQuery, customerValuesQuery, isDefinitionMissing, valueWriteStatements, type ValueWrite } from '../data/attributes';
import { customerByIdQuery } from '../data/customers';
import { parseAttributeValue } from '../domain/attributes';
import { ApiError, type FieldError } from '../lib/errors';
import { isoNow } from '../lib/time';
import type { AttributeValueEntryView, SetAttributeValuesInput } from '../schemas/attribute';
import { toAttributeValueEntries } from '../views/attribute';
import type { ServiceContext } from './context';

/** The customer's state as read in one batch: 404 when the customer is not the tenant's. */
async function loadCustomerValues(db: Database, tenantId: string, customerId: string) {
  const [[customer], definitions, values] = await db.batch([
    customerByIdQuery(db, tenantId, customerId),
    allDefinitionsQuery(db, tenantId),
    customerValuesQuery(db, tenantId, customerId),
  ]);
  if (!customer) throw ApiError.notFound('Customer');
  return { definitions, values };
}

/**
 * A definition deleted between the read and the write aborts the write (no value outlives its
 * definition): answered as if the key had not been defined, 422 at `values.<key>`.
 */
async function rethrowDeletedDefinitions(db: Database, tenantId: string, written: ReadonlyMap<string, string>, error: unknown): Promise<never> {
  if (!isDefinitionMissing(error)) throw error;
  const current = new Map((await allDefinitionsQuery(db, tenantId)).map((definition) => [definition.key, definition.id]));
  const errors = [...written]
    .filter(([key, definitionId]) => current.get(key) !== definitionId)
    .map(([key]) => ({ path: `values.${key}`, message: `Attribute "${key}" is not defined` }));
  throw new ApiError('VALIDATION_FAILED', 'Some attribute values are not valid', { errors });
}

/** One entry per definition of the tenant, `value` null where the customer has none. */
export async function getCustomerAttributes({ db, tenantId }: ServiceContext, customerId: string): Promise<AttributeValueEntryView[]> {
  const { definitions, values } = await loadCustomerValues(db, tenantId, customerId);
  return toAttributeValueEntries(definitions, values);
}

/**
 * Sets several values at once (portal and gateway): all are checked against their types first, and
 * a single failure writes nothing (422, one error per key at `values.<key>`). `null` clears a value.
 * Answers the customer's entries as they are after the write.
 */
export async function setCustomerAttributes({ db, tenantId, now }: ServiceContext, customerId: string, input: SetAttributeValuesInput): Promise<AttributeValueEntryView[]> {
  const { definitions, values } = await loadCustomerValues(db, tenantId, customerId);
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]));
  const errors: FieldError[] = [];
  const writes: ValueWrite[] = [];
  for (const [key, raw] of Object.entries(input.values)) {
    const definition = byKey.get(key);
    const path = `values.${key}`;
    if (!definition) {
      errors.push({ path, message: `Attribute "${key}" is not defined` });
    } else if (raw === null) {
      writes.push({ definitionId: definition.id, stored: null });
    } else {
      const parsed = parseAttributeValue(definition.type, raw);
      if (parsed.ok) writes.push({ definitionId: definition.id, stored: parsed.value });
      else errors.push({ path, message: `${parsed.message} (attribute "${key}" is of type ${definition.type})` });
    }
  }
  if (errors.length > 0) throw new ApiError('VALIDATION_FAILED', 'Some attribute values are not valid', { errors });

  const [first, ...rest] = valueWriteStatements(db, tenantId, customerId, writes, isoNow(now()));
  if (first) {
    const written = new Map(Object.keys(input.values).map((key) => [key, byKey.get(key)?.id ?? '']));
    await db.batch([first, ...rest]).catch((error: unknown) => rethrowDeletedDefinitions(db, tenantId, written, error));
  }
  const after = new Map(values.map((value) => [value.definitionId, value]));
  for (const { definitionId, stored } of writes) {
    if (stored === null) after.delete(definitionId);
    else after.set(definitionId, { definitionId, ...stored });
  }
  return toAttributeValueEntries(definitions, [...after.values()]);
}
