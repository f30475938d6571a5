import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { attributeDefinitions, cohorts, customerAttributeValues, type AttributeType, type CustomerAttributeValue } from '../db/schema';
import type { StoredValue } from '../domain/attributes';
import { offsetOf, type PageParams } from '../lib/paging';
import { abortedByTrigger } from './db-errors';
import { jsonRowsInsert } from './json-rows';

/** Definitions of the tenant, newest first (rowid breaks ties within one millisecond), with the total. */
export function definitionPageQueries(db: Database, tenantId: string, params: PageParams) {
  const where = eq(attributeDefinitions.tenantId, tenantId);
  return [
    db
      .select()
      .from(attributeDefinitions)
      .where(where)
      .orderBy(desc(attributeDefinitions.createdAt), desc(sql`rowid`))
      .limit(params.limit)
      .offset(offsetOf(params)),
    db.select({ value: count() }).from(attributeDefinitions).where(where),
  ] as const;
}

/** Every definition of the tenant, by key (customers get one value entry per definition). */
export function allDefinitionsQuery(db: Database, tenantId: string) {
  return db.select().from(attributeDefinitions).where(eq(attributeDefinitions.tenantId, tenantId)).orderBy(asc(attributeDefinitions.key));
}

/** The definitions of the tenant among `keys`; an empty list matches nothing. */
export function definitionsByKeysQuery(db: Database, tenantId: string, keys: readonly string[]) {
  return db
    .select({ id: attributeDefinitions.id, key: attributeDefinitions.key, type: attributeDefinitions.type })
    .from(attributeDefinitions)
    .where(and(eq(attributeDefinitions.tenantId, tenantId), inArray(attributeDefinitions.key, [...keys])));
}

/** Inserts unless the key is taken (the unique index decides, race-free): no row returned then. */
export function insertDefinitionQuery(db: Database, definition: { id: string; tenantId: string; key: string; type: AttributeType }) {
  return db.insert(attributeDefinitions).values(definition).onConflictDoNothing().returning({ id: attributeDefinitions.id });
}

/** How many cohorts of the tenant name `key` in an attribute predicate (read from the stored JSON). */
export function cohortsNamingKeyQuery(db: Database, tenantId: string, key: string) {
  const names = sql`exists (select 1 from json_each(${cohorts.rules}, '$.predicates') as p
    where json_extract(p.value, '$.type') = 'attribute' and json_extract(p.value, '$.key') = ${key})`;
  return db.select({ value: count() }).from(cohorts).where(and(eq(cohorts.tenantId, tenantId), names));
}

/**
 * Deletes a definition and every value of it in one batch; false when it is not the tenant's. The
 * definition goes first: its trigger (src/db/sql/cohort-membership.sql) retires the cohort predicates naming it, so
 * deleting the values then re-evaluates nothing.
 */
export async function deleteDefinition(db: Database, tenantId: string, id: string): Promise<boolean> {
  const [deleted] = await db.batch([
    db
      .delete(attributeDefinitions)
      .where(and(eq(attributeDefinitions.tenantId, tenantId), eq(attributeDefinitions.id, id)))
      .returning({ id: attributeDefinitions.id }),
    db.delete(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenantId), eq(customerAttributeValues.definitionId, id))),
  ]);
  return deleted.length > 0;
}

/** The customer's stored values (only definitions that still exist keep values). */
export function customerValuesQuery(db: Database, tenantId: string, userId: string) {
  return db
    .select({ definitionId: customerAttributeValues.definitionId, valueText: customerAttributeValues.valueText, valueNumber: customerAttributeValues.valueNumber })
    .from(customerAttributeValues)
    .where(and(eq(customerAttributeValues.tenantId, tenantId), eq(customerAttributeValues.userId, userId)));
}

export type ValueWrite = { definitionId: string; stored: StoredValue | null };

/**
 * True when a value write was refused because its definition no longer exists (deleted after the
 * writer read it): the `customer_attribute_values_need_definition` trigger of src/db/sql/attribute-values.sql
 * aborts the whole batch, so no value outlives its definition.
 */
export function isDefinitionMissing(error: unknown): boolean {
  return abortedByTrigger(error, 'attribute_definition_missing');
}

const VALUE_KEY = ['tenantId', 'userId', 'definitionId'] as const;
const VALUE_UPDATED = ['valueText', 'valueNumber', 'updatedAt'] as const;

/** The row a value write upserts: on the customer's existing value for the definition (VALUE_KEY), only VALUE_UPDATED change. */
export function attributeValueRow(tenantId: string, userId: string, definitionId: string, stored: StoredValue, now: string): CustomerAttributeValue {
  return { tenantId, userId, definitionId, ...stored, createdAt: now, updatedAt: now };
}

/** Upserts (or, for `null`, deletes) the customer's values, stamped `now`; to run in one batch. */
export function valueWriteStatements(db: Database, tenantId: string, userId: string, writes: readonly ValueWrite[], now: string) {
  return writes.map(({ definitionId, stored }) => {
    const row = and(
      eq(customerAttributeValues.tenantId, tenantId),
      eq(customerAttributeValues.userId, userId),
      eq(customerAttributeValues.definitionId, definitionId),
    );
    if (stored === null) return db.delete(customerAttributeValues).where(row);
    const written = attributeValueRow(tenantId, userId, definitionId, stored, now);
    return db
      .insert(customerAttributeValues)
      .values(written)
      .onConflictDoUpdate({
        target: VALUE_KEY.map((key) => customerAttributeValues[key]),
        set: Object.fromEntries(VALUE_UPDATED.map((key) => [key, written[key]])),
      });
  });
}

/** Upserts many customers' values (attributeValueRow) at once, as valueWriteStatements upserts one (json-rows.ts). */
export const valueUpsertSetStatements = jsonRowsInsert(customerAttributeValues, { target: VALUE_KEY, update: VALUE_UPDATED });
