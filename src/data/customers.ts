import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, internalWallets, type Customer, type CustomerStatus } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';

export type CustomerFilters = { externalId?: string; email?: string; status?: CustomerStatus };

/** Page and total of the tenant's customers, newest first (query builders for one batch). */
export function customerPageQueries(db: Database, tenantId: string, filters: CustomerFilters, params: PageParams) {
  const where = and(
    eq(customers.tenantId, tenantId),
    filters.externalId === undefined ? undefined : eq(customers.externalId, filters.externalId),
    filters.email === undefined ? undefined : eq(customers.email, filters.email.toLowerCase()),
    filters.status === undefined ? undefined : eq(customers.status, filters.status),
  );
  return [
    db.select().from(customers).where(where).orderBy(desc(customers.createdAt), desc(customers.id)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(customers).where(where),
  ] as const;
}

export function customerByIdQuery(db: Database, tenantId: string, id: string) {
  return db.select().from(customers).where(and(eq(customers.id, id), eq(customers.tenantId, tenantId))).limit(1);
}

export function customerByExternalIdQuery(db: Database, tenantId: string, externalId: string) {
  return db.select().from(customers).where(and(eq(customers.externalId, externalId), eq(customers.tenantId, tenantId))).limit(1);
}

export type CustomerProfile = Partial<Pick<Customer, 'email' | 'username' | 'countryCode'>>;

export type NewCustomer = CustomerProfile & {
  id: string;
  tenantId: string;
  externalId: string;
  wallet: { id: string; address: string; derivationIndex: number };
};

/**
 * A customer and its custodial wallet, for one batch: both exist or neither does. Balances start
 * at zero and only the ledger moves them.
 */
export function newCustomerStatements(db: Database, input: NewCustomer) {
  const now = isoNow();
  return [
    db
      .insert(customers)
      .values({
        id: input.id,
        tenantId: input.tenantId,
        externalId: input.externalId,
        email: input.email ?? null,
        username: input.username ?? null,
        countryCode: input.countryCode ?? null,
        status: 'active',
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
    db.insert(internalWallets).values({
      id: input.wallet.id,
      tenantId: input.tenantId,
      userId: input.id,
      address: input.wallet.address,
      walletKind: 'custodial',
      label: 'Custodial wallet',
      derivationIndex: input.wallet.derivationIndex,
      createdAt: now,
      updatedAt: now,
    }),
  ] as const;
}

/** Changes only the profile fields given; the updated row (undefined when no such customer). */
export async function updateCustomerProfile(db: Database, tenantId: string, externalId: string, profile: CustomerProfile) {
  const [row] = await db
    .update(customers)
    .set({ ...profile, updatedAt: isoNow() })
    .where(and(eq(customers.externalId, externalId), eq(customers.tenantId, tenantId)))
    .returning();
  return row;
}

/** Moves the status only if it is still `from` (a concurrent change makes this return false). */
export async function moveCustomerStatus(db: Database, tenantId: string, id: string, from: CustomerStatus, to: CustomerStatus) {
  const rows = await db
    .update(customers)
    .set({ status: to, updatedAt: isoNow() })
    .where(and(eq(customers.id, id), eq(customers.tenantId, tenantId), eq(customers.status, from)))
    .returning({ id: customers.id });
  return rows.length > 0;
}
