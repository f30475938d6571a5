import { and, asc, eq, gte, lte, sql, type Column, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/client';
import { cohortMemberships, customerAttributeValues, customers, internalTransactions, pointLots } from '../db/schema';

/**
 * The pages an export reads, oldest first, each after the last row of the one before (keyset on
 * `(created_at, id)` through the tenant's `created_at` index; never OFFSET, so page 1,000 costs
 * what page 1 does). Rows are the live rows: an erased customer reads as erased.
 */
export type ExportCursor = { createdAt: string; id: string };
export type ExportPeriod = { from: string | null; to: string | null };

function after(createdAt: SQLWrapper, id: SQLWrapper, cursor: ExportCursor | undefined) {
  return cursor ? sql`(${createdAt}, ${id}) > (${cursor.createdAt}, ${cursor.id})` : undefined;
}

function within(column: Column, period: ExportPeriod) {
  return and(period.from === null ? undefined : gte(column, period.from), period.to === null ? undefined : lte(column, period.to));
}

/**
 * A page of customers with what their row shows besides the customer table: attribute values and
 * pending XP, read in the same round trip by the page's own condition (a list of ids would meet
 * D1's 100 bound parameters).
 */
export async function customerExportPage(db: Database, tenantId: string, period: ExportPeriod, cursor: ExportCursor | undefined, limit: number) {
  const where = and(eq(customers.tenantId, tenantId), within(customers.createdAt, period), after(customers.createdAt, customers.id, cursor));
  const pageIds = db.select({ id: customers.id }).from(customers).where(where).orderBy(asc(customers.createdAt), asc(customers.id)).limit(limit);
  const [rows, values, pending] = await db.batch([
    db.select().from(customers).where(where).orderBy(asc(customers.createdAt), asc(customers.id)).limit(limit),
    db
      .select({ userId: customerAttributeValues.userId, definitionId: customerAttributeValues.definitionId, valueText: customerAttributeValues.valueText, valueNumber: customerAttributeValues.valueNumber })
      .from(customerAttributeValues)
      .where(and(eq(customerAttributeValues.tenantId, tenantId), sql`${customerAttributeValues.userId} in ${pageIds}`)),
    db
      .select({ userId: pointLots.userId, pendingXp: sql<number>`sum(${pointLots.remaining})`.mapWith(Number) })
      .from(pointLots)
      .where(and(eq(pointLots.tenantId, tenantId), eq(pointLots.status, 'pending'), sql`${pointLots.userId} in ${pageIds}`))
      .groupBy(pointLots.userId),
  ]);
  return { rows, values, pending };
}

export type CustomerExportPage = Awaited<ReturnType<typeof customerExportPage>>;

/** A page of the ledger with each row's customer's live external id and erasure. */
export function transactionExportPage(db: Database, tenantId: string, period: ExportPeriod, cursor: ExportCursor | undefined, limit: number) {
  return db
    .select({
      transaction: internalTransactions,
      externalId: customers.externalId,
      erasedAt: customers.erasedAt,
    })
    .from(internalTransactions)
    .leftJoin(customers, and(eq(customers.tenantId, internalTransactions.tenantId), eq(customers.id, internalTransactions.userId)))
    .where(
      and(
        eq(internalTransactions.tenantId, tenantId),
        within(internalTransactions.createdAt, period),
        after(internalTransactions.createdAt, internalTransactions.id, cursor),
      ),
    )
    .orderBy(asc(internalTransactions.createdAt), asc(internalTransactions.id))
    .limit(limit);
}

/** A page of a cohort's members (as it matches now), oldest customer first, through the membership index. */
export function cohortMemberExportPage(db: Database, tenantId: string, cohortId: string, cursor: ExportCursor | undefined, limit: number) {
  return db
    .select({
      id: customers.id,
      externalId: customers.externalId,
      email: customers.email,
      username: customers.username,
      status: customers.status,
      erasedAt: customers.erasedAt,
      createdAt: cohortMemberships.customerCreatedAt,
    })
    .from(cohortMemberships)
    .innerJoin(customers, and(eq(customers.tenantId, cohortMemberships.tenantId), eq(customers.id, cohortMemberships.customerId)))
    .where(
      and(
        eq(cohortMemberships.tenantId, tenantId),
        eq(cohortMemberships.cohortId, cohortId),
        after(cohortMemberships.customerCreatedAt, cohortMemberships.customerId, cursor),
      ),
    )
    .orderBy(asc(cohortMemberships.customerCreatedAt), asc(cohortMemberships.customerId))
    .limit(limit);
}
