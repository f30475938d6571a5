import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, internalWallets, type CustomerStatus } from '../db/schema';
import { custodialWalletRow, newCustomerRow, type CustomerProfile, type NewCustomer } from './customers';
import { jsonRowsInsert, overJsonRows } from './json-rows';
import { reusable, type Slots } from './reusable-statements';

/**
 * Writes of many customers at once (an import's chunk), each the set form of a single customer's
 * write in customers.ts, from the same rows: a statement per kind of write whatever the number of
 * customers (json-rows.ts). Triggers fire per row as they do for the single writes.
 */

const insertCustomers = jsonRowsInsert(customers);
const insertWallets = jsonRowsInsert(internalWallets);

/** New customers with their custodial wallets (newCustomerStatements for many): in one batch, all exist or none does. */
export function newCustomerSetStatements(db: Database, inputs: readonly NewCustomer[], now: string) {
  return [...insertCustomers(db, inputs.map((input) => newCustomerRow(input, now))), ...insertWallets(db, inputs.map((input) => custodialWalletRow(input, now)))];
}

/**
 * A customer's profile change by id and external id (profileUpdateStatement for many): the fields
 * given change, the others stay. A null here keeps the field (an import's blank cell), never clears it.
 */
export type ProfileChange = { id: string; externalId: string; profile: CustomerProfile };

// By id and still by the external id read (as profileUpdateStatement): an erasure meanwhile replaced
// it with a tombstone, so the erased person is not written again. INDEXED BY (here and below): each
// row's customer found by its primary key, never the tenant's customers scanned, which the planner
// prefers for a large tenant (test/scale/hot-routes.test.ts, import chunks).
const updateProfiles = reusable((db, $: Slots<{ rows: string; tenantId: string; now: string }>) =>
  db.run(sql`update ${customers} indexed by sqlite_autoindex_customers_1 set
      email = coalesce(j.email, ${customers.email}), username = coalesce(j.username, ${customers.username}),
      country_code = coalesce(j.country_code, ${customers.countryCode}), updated_at = ${$.now}
    from (select value ->> 0 as id, value ->> 1 as external_id, value ->> 2 as email, value ->> 3 as username, value ->> 4 as country_code from json_each(${$.rows})) j
    where ${customers.tenantId} = ${$.tenantId} and ${customers.id} = j.id and ${customers.externalId} = j.external_id`),
);

export function profileChangeSetStatements(db: Database, tenantId: string, changes: readonly ProfileChange[], now: string) {
  const rows = changes.map(({ id, externalId, profile }) => [id, externalId, profile.email ?? null, profile.username ?? null, profile.countryCode ?? null]);
  return overJsonRows((database, values) => updateProfiles(database, { ...values, tenantId, now }), db, rows);
}

/** A status move, applied only if the customer is still in `from` (statusMoveStatement for many). */
export type StatusMove = { id: string; from: CustomerStatus; to: CustomerStatus };

const moveStatuses = reusable((db, $: Slots<{ rows: string; tenantId: string; now: string }>) =>
  db.run(sql`update ${customers} indexed by sqlite_autoindex_customers_1 set status = j.to_status, updated_at = ${$.now}
    from (select value ->> 0 as id, value ->> 1 as from_status, value ->> 2 as to_status from json_each(${$.rows})) j
    where ${customers.tenantId} = ${$.tenantId} and ${customers.id} = j.id and ${customers.status} = j.from_status`),
);

export function statusMoveSetStatements(db: Database, tenantId: string, moves: readonly StatusMove[], now: string) {
  return overJsonRows((database, values) => moveStatuses(database, { ...values, tenantId, now }), db, moves.map(({ id, from, to }) => [id, from, to]));
}
