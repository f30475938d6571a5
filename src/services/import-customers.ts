import { custodialIndexOfShard, custodialRangeStart } from '../domain/shards';
import { customerStatuses, type AttributeDefinition, type Customer, type CustomerStatus, type ImportJob } from '../db/schema';
import { allDefinitionsQuery, attributeValueRow, valueUpsertSetStatements } from '../data/attributes';
import { newCustomerSetStatements, profileChangeSetStatements, statusMoveSetStatements } from '../data/customer-sets';
import { customersByExternalIdsQuery, reserveWalletIndexesStatement, type CustomerProfile, type NewCustomer } from '../data/customers';
import type { RowError } from '../data/imports';
import { parseAttributeValue, type StoredValue } from '../domain/attributes';
import { canMoveCustomerStatus } from '../domain/customer-status';
import { ATTRIBUTE_COLUMN_PREFIX } from '../domain/imports';
import { custodialAddress } from '../domain/wallets';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import { upsertCustomerBodySchema, type UpsertCustomerInput } from '../schemas/customer';
import type { ServiceContext } from './context';
import { cellsOf, issueMessage, type ChunkPlan, type ImportRow } from './import-rows';

/** A valid customers row: the upsert's own input (the gateway's schema), a status, attribute values by definition id. */
type CustomerRow = { row: number; input: UpsertCustomerInput; status?: CustomerStatus; values: Map<string, StoredValue> };

/**
 * A customer the chunk reaches, as read and as its rows so far leave it: `read` is undefined for
 * a customer the chunk creates; `profile` holds the fields the rows filled, `values` the last
 * value each row gave per definition.
 */
type Folded = { id: string; read?: Known; status: CustomerStatus; profile: CustomerProfile; values: Map<string, StoredValue> };
type Known = { status: CustomerStatus; profile: CustomerProfile };

/**
 * The statements of a customers chunk: each row upserts by `external_id` exactly as the gateway's
 * upsert (services/customers.ts) does: a new customer with its custodial wallet, or the profile
 * fields the row fills (a blank cell changes nothing), a status move the customer's current status
 * allows, and the `attr.<key>` values. A later row of the same external id is an update of the
 * earlier one, in the file's order. Erased customers carry a tombstone external id, so no row
 * reaches them (docs/decisions/0103-erasure.md).
 *
 * The rows are folded per external id first (each row checked against the state the earlier rows
 * left), then written set-based: a statement per kind of write (data/customer-sets.ts), however
 * many rows, so a chunk's batch stays a handful of statements and its SQL is built once.
 */
export async function planCustomerRows(ctx: ServiceContext, job: ImportJob, rows: readonly ImportRow[], walletMnemonic: string): Promise<ChunkPlan> {
  const { db, tenantId } = ctx;
  const cells = cellsOf(job, rows);
  const externalIds = cells.flatMap((row) => (row.ok ? [row.cells.get('external_id') ?? ''] : []));
  const [existing, definitions] = await db.batch([customersByExternalIdsQuery(db, tenantId, externalIds), allDefinitionsQuery(db, tenantId)]);
  const errors: RowError[] = [];
  const valid: CustomerRow[] = [];
  const definitionsByKey = new Map(definitions.map((definition) => [definition.key, definition]));
  for (const row of cells) {
    const checked = row.ok ? customerRow(row.row, row.cells, definitionsByKey) : row;
    if (checked.ok) valid.push(checked.value);
    else errors.push(checked.error);
  }

  const folded = new Map<string, Folded>(existing.map((customer) => [customer.externalId, readCustomer(customer)]));
  let ok = 0;
  for (const row of valid) {
    const current = folded.get(row.input.external_id);
    const profile = profileOf(row.input);
    if (!current) {
      folded.set(row.input.external_id, { id: newId('cus'), status: row.status ?? 'active', profile, values: row.values });
    } else if (row.status && row.status !== current.status && !canMoveCustomerStatus(current.status, row.status)) {
      errors.push({ row: row.row, message: `status: the customer is ${current.status} and cannot move to ${row.status}` });
      continue;
    } else {
      current.status = row.status ?? current.status;
      current.profile = { ...current.profile, ...profile };
      for (const [definitionId, stored] of row.values) current.values.set(definitionId, stored);
    }
    ok += 1;
  }
  return { statements: await foldedStatements(ctx, [...folded], walletMnemonic), errors, ok };
}

/** The writes of the folded customers: the new ones with their wallets, profile changes, status moves, then every value. */
async function foldedStatements(ctx: ServiceContext, folded: [string, Folded][], walletMnemonic: string) {
  const { db, tenantId } = ctx;
  const now = isoNow(ctx.now());
  const fresh = folded.filter(([, customer]) => !customer.read);
  const wallets = await newWallets(ctx, fresh.length, walletMnemonic);
  const created = fresh.map(([externalId, { id, status, profile }], index): NewCustomer => ({ id, tenantId, externalId, ...profile, status, wallet: { id: newId('wal'), ...wallets[index]! } }));
  const updated = folded.flatMap(([externalId, customer]) => (customer.read ? [{ externalId, customer, read: customer.read }] : []));
  const changed = updated.filter(({ customer, read }) => (Object.keys(customer.profile) as (keyof CustomerProfile)[]).some((field) => customer.profile[field] !== read.profile[field]));
  const moved = updated.filter(({ customer, read }) => customer.status !== read.status);
  const values = folded.flatMap(([, { id, values }]) => [...values].map(([definitionId, stored]) => attributeValueRow(tenantId, id, definitionId, stored, now)));
  return [
    ...newCustomerSetStatements(db, created, now),
    ...profileChangeSetStatements(db, tenantId, changed.map(({ externalId, customer }) => ({ id: customer.id, externalId, profile: customer.profile })), now),
    ...statusMoveSetStatements(db, tenantId, moved.map(({ customer, read }) => ({ id: customer.id, from: read.status, to: customer.status })), now),
    ...valueUpsertSetStatements(db, values),
  ];
}

/** A customer as read: no fields filled and no values given yet. */
function readCustomer(customer: Customer): Folded {
  const read = { status: customer.status, profile: { email: customer.email, username: customer.username, countryCode: customer.countryCode } };
  return { id: customer.id, read, status: customer.status, profile: {}, values: new Map() };
}

/** The fields a row fills, as the upsert takes them. */
function profileOf(input: UpsertCustomerInput): CustomerProfile {
  const profile: CustomerProfile = {};
  if (input.email != null) profile.email = input.email;
  if (input.username != null) profile.username = input.username;
  if (input.country_code != null) profile.countryCode = input.country_code;
  return profile;
}

type Checked = { ok: true; value: CustomerRow } | { ok: false; error: RowError };

/** A row's cells checked as the gateway checks an upsert, and its status and attribute values by their types. */
function customerRow(row: number, cells: ReadonlyMap<string, string>, definitionsByKey: ReadonlyMap<string, AttributeDefinition>): Checked {
  const parsed = upsertCustomerBodySchema.safeParse({
    external_id: cells.get('external_id') ?? '',
    email: cells.get('email'),
    username: cells.get('username'),
    country_code: cells.get('country_code'),
  });
  if (!parsed.success) return { ok: false, error: { row, message: issueMessage(parsed.error.issues) } };
  const status = cells.get('status');
  if (status !== undefined && !(customerStatuses as readonly string[]).includes(status)) {
    return { ok: false, error: { row, message: `status: must be one of ${customerStatuses.join(', ')}` } };
  }
  const values = new Map<string, StoredValue>();
  for (const [column, raw] of cells) {
    if (!column.startsWith(ATTRIBUTE_COLUMN_PREFIX)) continue;
    const key = column.slice(ATTRIBUTE_COLUMN_PREFIX.length);
    const definition = definitionsByKey.get(key);
    if (!definition) return { ok: false, error: { row, message: `${column}: attribute "${key}" is not defined` } };
    const value = parseAttributeValue(definition.type, raw);
    if (!value.ok) return { ok: false, error: { row, message: `${column}: ${value.message} (attribute "${key}" is of type ${definition.type})` } };
    values.set(definition.id, value.value);
  }
  return { ok: true, value: { row, input: parsed.data, status: status as CustomerStatus | undefined, values } };
}

/** Custodial wallets for `count` new customers: their derivation indexes taken at once, addresses derived from them. */
async function newWallets({ db, shard }: ServiceContext, count: number, walletMnemonic: string) {
  if (count === 0) return [];
  const [reserved] = await reserveWalletIndexesStatement(db, count, custodialRangeStart(shard.name));
  if (!reserved) throw new Error('no wallet indexes reserved');
  const first = reserved.value - count + 1;
  return Promise.all(
    Array.from({ length: count }, async (_, offset) => {
      const derivationIndex = custodialIndexOfShard(shard.name, first + offset);
      const address = await custodialAddress(walletMnemonic, derivationIndex);
      return { address, derivationIndex };
    }),
  );
}
