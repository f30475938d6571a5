import type { CustomerExportPage, transactionExportPage, cohortMemberExportPage } from '../data/export-rows';
import type { AttributeDefinition, Customer } from '../db/schema';
import { renderAttributeValue } from './attribute';
import type { CustomerTier } from './customer';

/**
 * The CSV columns of each export kind and each row's record, in column order (docs/OPERATIONS.md,
 * "Exports"). A null is an empty field. An erased customer's tombstone external id
 * (`erased_...`, docs/decisions/0103-erasure.md) is no external id of the tenant's: it is left
 * empty, as its email, username and attribute values are.
 */
export type ExportRecord = (string | null)[];

const customerColumns = ['id', 'external_id', 'email', 'username', 'country_code', 'status', 'tier_id', 'tier_name', 'xp_balance', 'pending_xp', 'lifetime_xp', 'erased_at', 'created_at'];

/** The customers export's header: its fields, then `attr.<key>` per attribute definition (the imports' own form). */
export function customerExportColumns(definitions: readonly AttributeDefinition[]): string[] {
  return [...customerColumns, ...definitions.map((definition) => `attr.${definition.key}`)];
}

const externalIdOf = (customer: Pick<Customer, 'externalId' | 'erasedAt'>) => (customer.erasedAt === null ? customer.externalId : null);

/** The page's records; `tierOf` places each customer on the ladder read when the export began. */
export function customerExportRecords(
  page: CustomerExportPage,
  definitions: readonly AttributeDefinition[],
  tierOf: (customer: Customer) => CustomerTier | undefined,
): ExportRecord[] {
  const pendingOf = new Map(page.pending.map((row) => [row.userId, row.pendingXp]));
  const valuesOf = new Map<string, Map<string, (typeof page.values)[number]>>();
  for (const value of page.values) {
    const own = valuesOf.get(value.userId) ?? new Map();
    own.set(value.definitionId, value);
    valuesOf.set(value.userId, own);
  }
  return page.rows.map((customer) => {
    const tier = tierOf(customer);
    const values = valuesOf.get(customer.id);
    return [
      customer.id,
      externalIdOf(customer),
      customer.email,
      customer.username,
      customer.countryCode,
      customer.status,
      tier?.id ?? null,
      tier?.tierName ?? null,
      String(customer.xpBalance),
      String(pendingOf.get(customer.id) ?? 0),
      String(customer.lifetimeXp),
      customer.erasedAt,
      customer.createdAt,
      ...definitions.map((definition) => {
        const stored = values?.get(definition.id);
        return stored ? renderAttributeValue(definition.type, stored) : null;
      }),
    ];
  });
}

/** The ledger's fields (the spec's internal transaction without its joined objects), and the customer's external id. */
export const transactionExportColumns = ['id', 'user_id', 'external_id', 'type', 'amount', 'status', 'onchain_asset_id', 'redemption_id', 'notes', 'metadata', 'created_at', 'updated_at'];

export function transactionExportRecords(rows: Awaited<ReturnType<typeof transactionExportPage>>): ExportRecord[] {
  return rows.map(({ transaction, externalId, erasedAt }) => [
    transaction.id,
    transaction.userId,
    externalId === null ? null : externalIdOf({ externalId, erasedAt }),
    transaction.type,
    String(transaction.amount),
    transaction.status,
    transaction.onchainAssetId,
    transaction.redemptionId,
    transaction.notes,
    transaction.metadata === null || transaction.metadata === undefined ? null : JSON.stringify(transaction.metadata),
    transaction.createdAt,
    transaction.updatedAt,
  ]);
}

/** A cohort's members as it matches now (a membership records no joining time). */
export const cohortMemberExportColumns = ['customer_id', 'external_id', 'email', 'username', 'status', 'customer_created_at'];

export function cohortMemberExportRecords(rows: Awaited<ReturnType<typeof cohortMemberExportPage>>): ExportRecord[] {
  return rows.map((member) => [member.id, externalIdOf(member), member.email, member.username, member.status, member.createdAt]);
}
