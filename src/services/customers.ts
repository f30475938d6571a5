import { custodialIndexOfShard, custodialRangeStart } from '../domain/shards';
import type { Customer, CustomerStatus } from '../db/schema';
import { tierLadderQuery, tierOnLadder, type TierLadder } from '../data/customer-tiers';
import {
  customerByExternalIdQuery,
  customerByIdQuery,
  customerPageQueries,
  customerShown,
  storedIfCustomerShows,
  moveCustomerStatus,
  newCustomerRow,
  newCustomerStatements,
  profileUpdateStatement,
  walletIndexForNewCustomer,
  type CustomerProfile,
} from '../data/customers';
import { violatesUnique } from '../data/db-errors';
import { namedBatch } from '../data/named-batch';
import type { ResponseWithWrite } from '../data/response-with-write';
import { assertCustomerStatusMove } from '../domain/customer-status';
import { custodialAddress } from '../domain/wallets';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CustomerListQuery, CustomerView, UpsertCustomerInput } from '../schemas/customer';
import { toCustomerView } from '../views/customer';
import type { ServiceContext } from './context';

export async function listCustomers({ db, tenantId }: ServiceContext, query: CustomerListQuery): Promise<Page<CustomerView>> {
  const filters = { externalId: query.external_id, email: query.email, status: query.status };
  const { page, ladder } = await namedBatch(db, { page: customerPageQueries(db, tenantId, filters, query), ladder: tierLadderQuery(db, tenantId) });
  const [rows, [total]] = page;
  const items = rows.map((customer) => toCustomerView(customer, tierOnLadder(ladder, customer)));
  return pageOf(items, total?.value ?? 0, query);
}

export async function getCustomer({ db, tenantId }: ServiceContext, id: string): Promise<CustomerView> {
  const [[customer], ladder] = await db.batch([customerByIdQuery(db, tenantId, id), tierLadderQuery(db, tenantId)]);
  if (!customer) throw ApiError.notFound('Customer');
  return toCustomerView(customer, tierOnLadder(ladder, customer));
}

/** The fields the client sent (`null` clears one); absent fields stay as they are. */
function profileOf(input: UpsertCustomerInput): CustomerProfile {
  const profile: CustomerProfile = {};
  if (input.email !== undefined) profile.email = input.email;
  if (input.username !== undefined) profile.username = input.username;
  if (input.country_code !== undefined) profile.countryCode = input.country_code;
  return profile;
}

const viewOf = (customer: Customer, ladder: TierLadder) => toCustomerView(customer, tierOnLadder(ladder, customer));

/** The responses a route may store with the write (ResponseWithWrite): one for a creation, one for an update. */
export type UpsertResponses = { created?: ResponseWithWrite<CustomerView>; updated?: ResponseWithWrite<CustomerView> };

/** `walletMnemonic`: the custodial wallets' seed (configuration); `responses`: see UpsertResponses. */
export type UpsertOptions = { walletMnemonic: string; responses?: UpsertResponses };

/**
 * Applies the sent profile fields. When the current row is known and nothing differs, nothing is
 * written, so a client re-sending the same profile does not move `updated_at`. When it is known
 * and changes, the update's batch also stores `response`, if the row is then the one expected.
 */
async function updateExisting(ctx: ServiceContext, input: UpsertCustomerInput, ladder: TierLadder, current?: Customer, response?: ResponseWithWrite<CustomerView>) {
  const { db, tenantId } = ctx;
  const profile = profileOf(input);
  const unchanged = current && (Object.keys(profile) as (keyof CustomerProfile)[]).every((field) => profile[field] === current[field]);
  if (unchanged) return { customer: viewOf(current, ladder), created: false };
  const now = isoNow(ctx.now());
  const expected = current && { ...current, ...profile, updatedAt: now };
  const { updated, stored } = await namedBatch(db, {
    updated: profileUpdateStatement(db, tenantId, input.external_id, profile, now),
    stored: expected && response?.statement(db, viewOf(expected, ladder), { completion: storedIfCustomerShows, values: customerShown(expected) }),
  });
  response?.settle(stored);
  const [customer] = updated;
  if (!customer) throw new Error('customer vanished during upsert');
  return { customer: viewOf(customer, ladder), created: false };
}

/**
 * Creates the customer with its custodial wallet, or updates the profile of the one with that
 * `external_id`. `created` tells the caller which (201 or 200).
 *
 * The first batch looks the customer up and, only if there is none, takes the wallet's derivation
 * index (the address is derived from it before the insert). The insert batch also stores
 * `responses.created`: the new row is exactly the values written. If a concurrent request created
 * the same `external_id` first, the unique index rejects the insert batch whole and the request
 * becomes an update.
 */
export async function upsertCustomer(ctx: ServiceContext, input: UpsertCustomerInput, { walletMnemonic, responses = {} }: UpsertOptions): Promise<{ customer: CustomerView; created: boolean }> {
  const { db, tenantId } = ctx;
  const [[existing], ladder, [walletIndex]] = await db.batch([
    customerByExternalIdQuery(db, tenantId, input.external_id),
    tierLadderQuery(db, tenantId),
    walletIndexForNewCustomer(db, tenantId, input.external_id, custodialRangeStart(ctx.shard.name)),
  ]);
  if (existing) return updateExisting(ctx, input, ladder, existing, responses.updated);
  if (!walletIndex) throw new Error('no wallet index taken for a new customer');

  const address = await custodialAddress(walletMnemonic, custodialIndexOfShard(ctx.shard.name, walletIndex.value));
  const now = isoNow(ctx.now());
  const wallet = { id: newId('wal'), address, derivationIndex: walletIndex.value };
  const newCustomer = { id: newId('cus'), tenantId, externalId: input.external_id, ...profileOf(input), wallet };
  const expected = newCustomerRow(newCustomer, now);
  const customer = await namedBatch(db, {
    inserted: newCustomerStatements(db, newCustomer, now),
    stored: responses.created?.statement(db, viewOf(expected, ladder), { completion: storedIfCustomerShows, values: customerShown(expected) }),
  }).then(
    ({ inserted: [rows], stored }) => {
      responses.created?.settle(stored);
      return rows[0];
    },
    (error: unknown) => {
      if (violatesUnique(error, 'customers.external_id')) return undefined;
      throw error;
    },
  );
  // Undefined: a concurrent request created this external_id first; this one becomes its update.
  if (!customer) return updateExisting(ctx, input, ladder);
  return { customer: viewOf(customer, ladder), created: true };
}

/** Moves a customer's status along the allowed transitions (domain/customer-status.ts). */
export async function changeCustomerStatus({ db, tenantId, now }: ServiceContext, id: string, status: CustomerStatus): Promise<void> {
  const [customer] = await customerByIdQuery(db, tenantId, id);
  if (!customer) throw ApiError.notFound('Customer');
  assertCustomerStatusMove(customer.status, status);
  if (!(await moveCustomerStatus(db, tenantId, id, customer.status, status, isoNow(now())))) {
    throw new ApiError('CONFLICT', 'The customer status was changed by another request; read it again and retry', { path: 'status' });
  }
}
