import type { Database } from '../db/client';
import type { Customer, CustomerStatus } from '../db/schema';
import { tierLadderQuery, tierOnLadder, type TierLadder } from '../data/customer-tiers';
import {
  customerByExternalIdQuery,
  customerByIdQuery,
  customerPageQueries,
  moveCustomerStatus,
  newCustomerStatements,
  updateCustomerProfile,
  type CustomerProfile,
} from '../data/customers';
import { violatesUnique } from '../data/db-errors';
import { nextSequenceValue } from '../data/sequences';
import { assertCustomerStatusMove } from '../domain/customer-status';
import { custodialAccount } from '../domain/wallets';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import type { CustomerListQuery, CustomerView, UpsertCustomerInput } from '../schemas/customer';
import { toCustomerView } from '../views/customer';

const CUSTODIAL_WALLET_SEQUENCE = 'custodial_wallet';

export async function listCustomers(db: Database, tenantId: string, query: CustomerListQuery): Promise<Page<CustomerView>> {
  const filters = { externalId: query.external_id, email: query.email, status: query.status };
  const [rows, [total], ladder] = await db.batch([...customerPageQueries(db, tenantId, filters, query), tierLadderQuery(db, tenantId)]);
  const items = rows.map((customer) => toCustomerView(customer, tierOnLadder(ladder, customer)));
  return pageOf(items, total?.value ?? 0, query);
}

export async function getCustomer(db: Database, tenantId: string, id: string): Promise<CustomerView> {
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

/**
 * Applies the sent profile fields. When the current row is known and nothing differs, nothing is
 * written, so a client re-sending the same profile does not move `updated_at`.
 */
async function updateExisting(db: Database, tenantId: string, input: UpsertCustomerInput, ladder: TierLadder, current?: Customer) {
  const profile = profileOf(input);
  const unchanged = current && (Object.keys(profile) as (keyof CustomerProfile)[]).every((field) => profile[field] === current[field]);
  const customer = unchanged ? current : await updateCustomerProfile(db, tenantId, input.external_id, profile);
  if (!customer) throw new Error('customer vanished during upsert');
  return { customer: toCustomerView(customer, tierOnLadder(ladder, customer)), created: false };
}

/**
 * Creates the customer with its custodial wallet, or updates the profile of the one with that
 * `external_id`. `created` tells the caller which (201 or 200).
 *
 * The wallet's derivation index is taken from a global sequence before the insert batch, since the
 * address must be computed from it; if a concurrent request created the same `external_id`
 * first, the unique index rejects this batch whole and the request becomes an update.
 */
export async function upsertCustomer(
  db: Database,
  tenantId: string,
  input: UpsertCustomerInput,
  walletMnemonic: string,
): Promise<{ customer: CustomerView; created: boolean }> {
  const [[existing], ladder] = await db.batch([customerByExternalIdQuery(db, tenantId, input.external_id), tierLadderQuery(db, tenantId)]);
  if (existing) return updateExisting(db, tenantId, input, ladder, existing);

  const derivationIndex = await nextSequenceValue(db, CUSTODIAL_WALLET_SEQUENCE);
  const { address } = await custodialAccount(walletMnemonic, derivationIndex);
  const statements = newCustomerStatements(db, {
    id: newId('cus'),
    tenantId,
    externalId: input.external_id,
    ...profileOf(input),
    wallet: { id: newId('wal'), address, derivationIndex },
  });
  const customer = await db.batch(statements).then(
    ([[row]]) => row,
    (error: unknown) => {
      if (violatesUnique(error, 'customers.external_id')) return undefined;
      throw error;
    },
  );
  // Undefined: a concurrent request created this external_id first; this one becomes its update.
  if (!customer) return updateExisting(db, tenantId, input, ladder);
  return { customer: toCustomerView(customer, tierOnLadder(ladder, customer)), created: true };
}

/** Moves a customer's status along the allowed transitions (domain/customer-status.ts). */
export async function changeCustomerStatus(db: Database, tenantId: string, id: string, status: CustomerStatus): Promise<void> {
  const [customer] = await customerByIdQuery(db, tenantId, id);
  if (!customer) throw ApiError.notFound('Customer');
  assertCustomerStatusMove(customer.status, status);
  if (!(await moveCustomerStatus(db, tenantId, id, customer.status, status))) {
    throw new ApiError('CONFLICT', 'The customer status was changed by another request; read it again and retry', { path: 'status' });
  }
}
