import { and, eq, exists, notExists, sql, type SQLWrapper } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { inJsonList } from './json-list';
import { customers, internalWallets, type Customer, type CustomerStatus, type InternalWallet } from '../db/schema';
import type { PageParams } from '../lib/paging';
import { completionWhen } from './response-with-write';
import type { Slots } from './reusable-statements';
import { nextSequenceValueStatement, reserveSequenceValuesStatement } from './sequences';
import { listTotalQuery, newestFirstPage } from './tenant-counts';

export type CustomerFilters = { externalId?: string; email?: string; status?: CustomerStatus };

/**
 * Page and total of the tenant's customers, newest first (query builders for one batch). Status
 * alone is a maintained count; external id and email narrow to a row or two and are counted live.
 */
export function customerPageQueries(db: Database, tenantId: string, filters: CustomerFilters, params: PageParams) {
  const narrowing = and(
    filters.externalId === undefined ? undefined : eq(customers.externalId, filters.externalId),
    filters.email === undefined ? undefined : eq(customers.email, filters.email.toLowerCase()),
  );
  const filter = and(narrowing, filters.status === undefined ? undefined : eq(customers.status, filters.status));
  const page = newestFirstPage(db, customers, tenantId, filter, params);
  return [
    db.select().from(customers).where(page.where).orderBy(page.orderBy).limit(params.limit).offset(page.offset),
    listTotalQuery(db, customers, 'customers', tenantId, {
      bucket: { status: filters.status },
      live: narrowing && and(eq(customers.tenantId, tenantId), filter),
    }),
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
  /** Active unless given (an import brings its members' statuses). */
  status?: CustomerStatus;
  tenantId: string;
  externalId: string;
  wallet: { id: string; address: string; derivationIndex: number };
};

const CUSTODIAL_WALLET_SEQUENCE = 'custodial_wallet';

/**
 * Takes the next custodial wallet derivation index of the shard, from `rangeStart` (its range:
 * domain/shards.ts) (the address is derived from it before the
 * insert) only if the tenant has no customer with `externalId` yet, so an update takes none: a
 * statement for the batch that looks the customer up. Its RETURNING row is `{ value }`.
 */
export function walletIndexForNewCustomer(db: Database, tenantId: string, externalId: string, rangeStart: number) {
  return nextSequenceValueStatement(db, CUSTODIAL_WALLET_SEQUENCE, notExists(customerByExternalIdQuery(db, tenantId, externalId)), rangeStart);
}

/** Takes `count` custodial wallet derivation indexes at once (an import's new customers): its RETURNING row is the last. */
export function reserveWalletIndexesStatement(db: Database, count: number, rangeStart: number) {
  return reserveSequenceValuesStatement(db, CUSTODIAL_WALLET_SEQUENCE, count, rangeStart);
}

/** The tenant's customers among `externalIds` (one JSON value bound, whatever their number). */
export function customersByExternalIdsQuery(db: Database, tenantId: string, externalIds: readonly string[]) {
  return db
    .select()
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), inJsonList(customers.externalId, externalIds)));
}

/** The row newCustomerStatements(db, input, now) writes, to render its view before the batch runs. */
export function newCustomerRow(input: NewCustomer, now: string): Customer {
  return {
    id: input.id,
    tenantId: input.tenantId,
    externalId: input.externalId,
    email: input.email ?? null,
    username: input.username ?? null,
    countryCode: input.countryCode ?? null,
    status: input.status ?? 'active',
    xpBalance: 0,
    lifetimeXp: 0,
    // Under earned_in_period a trigger holds the tier 0 XP places (src/db/sql/tier-retention.sql): the same tier, no review date.
    tierHeld: false,
    tierId: null,
    tierValidUntil: null,
    erasedAt: null,
    seq: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A customer and its custodial wallet, for one batch: both exist or neither does. Balances start
 * at zero and only the ledger moves them.
 */
export function newCustomerStatements(db: Database, input: NewCustomer, now: string) {
  return [db.insert(customers).values(newCustomerRow(input, now)).returning(), db.insert(internalWallets).values(custodialWalletRow(input, now))] as const;
}

/** The custodial wallet row a new customer is created with (newCustomerStatements, and an import's set of new customers). */
export function custodialWalletRow(input: NewCustomer, now: string): InternalWallet {
  return {
    id: input.wallet.id,
    tenantId: input.tenantId,
    userId: input.id,
    address: input.wallet.address,
    walletKind: 'custodial',
    label: 'Custodial wallet',
    derivationIndex: input.wallet.derivationIndex,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Changes only the profile fields given; RETURNING the updated row (none when no such customer). For a batch. */
export function profileUpdateStatement(db: Database, tenantId: string, externalId: string, profile: CustomerProfile, now: string) {
  return db
    .update(customers)
    .set({ ...profile, updatedAt: now })
    .where(and(eq(customers.externalId, externalId), eq(customers.tenantId, tenantId)))
    .returning();
}

type CustomerShown = Pick<
  Customer,
  'tenantId' | 'externalId' | 'username' | 'email' | 'countryCode' | 'status' | 'xpBalance' | 'lifetimeXp' | 'tierId' | 'tierValidUntil' | 'createdAt' | 'updatedAt'
> & {
  customerId: string;
};

/** The values `storedIfCustomerShows` compares the row with. */
export function customerShown(row: Customer): CustomerShown {
  const { id, tenantId, externalId, username, email, countryCode, status, xpBalance, lifetimeXp, tierId, tierValidUntil, createdAt, updatedAt } = row;
  return { customerId: id, tenantId, externalId, username, email, countryCode, status, xpBalance, lifetimeXp, tierId, tierValidUntil, createdAt, updatedAt };
}

/**
 * Stores a response only if, after the customer's write in the same batch, the row shows exactly
 * what the values (`customerShown(row)`) show in a customer view, so a view rendered from `row` is current.
 */
export const storedIfCustomerShows = completionWhen((db, $: Slots<CustomerShown>) => {
  const same = (column: SQLiteColumn, value: SQLWrapper) => sql`${column} is ${value}`;
  return exists(
    db
      .select({ one: sql`1` })
      .from(customers)
      .where(
        and(
          eq(customers.id, $.customerId),
          eq(customers.tenantId, $.tenantId),
          eq(customers.externalId, $.externalId),
          same(customers.username, $.username),
          same(customers.email, $.email),
          same(customers.countryCode, $.countryCode),
          eq(customers.status, $.status),
          eq(customers.xpBalance, $.xpBalance),
          eq(customers.lifetimeXp, $.lifetimeXp),
          same(customers.tierId, $.tierId),
          same(customers.tierValidUntil, $.tierValidUntil),
          eq(customers.createdAt, $.createdAt),
          eq(customers.updatedAt, $.updatedAt),
        ),
      ),
  );
});

/** Moves the status only if it is still `from` (a concurrent change makes this return false). */
export async function moveCustomerStatus(db: Database, tenantId: string, id: string, from: CustomerStatus, to: CustomerStatus, now: string) {
  const rows = await statusMoveStatement(db, tenantId, id, from, to, now);
  return rows.length > 0;
}

/** The status move as a statement for a batch: RETURNING the id, none when the status was no longer `from`. */
export function statusMoveStatement(db: Database, tenantId: string, id: string, from: CustomerStatus, to: CustomerStatus, now: string) {
  return db
    .update(customers)
    .set({ status: to, updatedAt: now })
    .where(and(eq(customers.id, id), eq(customers.tenantId, tenantId), eq(customers.status, from)))
    .returning({ id: customers.id });
}
