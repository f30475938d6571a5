import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { cohortMemberships, cohorts, internalWallets } from '../db/schema';

/** What the subject access export reads beside the API's own lists (services/customer-data.ts). */

export function customerCohortsQuery(db: Database, tenantId: string, customerId: string) {
  return db
    .select({ id: cohorts.id, name: cohorts.name })
    .from(cohortMemberships)
    .innerJoin(cohorts, and(eq(cohorts.id, cohortMemberships.cohortId), eq(cohorts.tenantId, tenantId)))
    .where(and(eq(cohortMemberships.tenantId, tenantId), eq(cohortMemberships.customerId, customerId)))
    .orderBy(asc(cohorts.name));
}

export function customerWalletsQuery(db: Database, tenantId: string, customerId: string) {
  return db
    .select()
    .from(internalWallets)
    .where(and(eq(internalWallets.tenantId, tenantId), eq(internalWallets.userId, customerId), isNull(internalWallets.deletedAt)));
}
