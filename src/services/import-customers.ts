import type { BatchItem } from 'drizzle-orm/batch';
import { customerStatuses, type AttributeDefinition, type Customer, type CustomerStatus, type ImportJob } from '../db/schema';
import { allDefinitionsQuery, valueWriteStatements, type ValueWrite } from '../data/attributes';
import {
  customersByExternalIdsQuery,
  newCustomerStatements,
  profileUpdateStatement,
  reserveWalletIndexesStatement,
  statusMoveStatement,
  type CustomerProfile,
} from '../data/customers';
import type { RowError } from '../data/imports';
import { parseAttributeValue } from '../domain/attributes';
import { canMoveCustomerStatus } from '../domain/customer-status';
import { ATTRIBUTE_COLUMN_PREFIX } from '../domain/imports';
import { custodialAddress } from '../domain/wallets';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import { upsertCustomerBodySchema, type UpsertCustomerInput } from '../schemas/customer';
import type { ServiceContext } from './context';
import { cellsOf, issueMessage, type ChunkPlan, type ImportRow } from './import-rows';

/** A valid customers row: the upsert's own input (the gateway's schema), a status, attribute values. */
type CustomerRow = { row: number; input: UpsertCustomerInput; status?: CustomerStatus; values: ValueWrite[] };

/** The customer a row reaches: as read, or as an earlier row of the chunk left it. */
type Known = { id: string; status: CustomerStatus; profile: CustomerProfile };

/**
 * The statements of a customers chunk: each row upserts by `external_id` exactly as the gateway's
 * upsert (services/customers.ts) does, with its data statements: a new customer with its custodial
 * wallet, or the profile fields the row fills (a blank cell changes nothing), a status move the
 * customer's current status allows, and the `attr.<key>` values. A later row of the same external
 * id is an update of the earlier one, in the file's order. Erased customers carry a tombstone
 * external id, so no row reaches them (docs/decisions/0103-erasure.md).
 */
export async function planCustomerRows(ctx: ServiceContext, job: ImportJob, rows: readonly ImportRow[], walletMnemonic: string): Promise<ChunkPlan> {
  const { db, tenantId } = ctx;
  const cells = cellsOf(job, rows);
  const externalIds = cells.flatMap((row) => (row.ok ? [row.cells.get('external_id') ?? ''] : []));
  const [existing, definitions] = await db.batch([customersByExternalIdsQuery(db, tenantId, externalIds), allDefinitionsQuery(db, tenantId)]);
  const errors: RowError[] = [];
  const valid: CustomerRow[] = [];
  for (const row of cells) {
    const checked = row.ok ? customerRow(row.row, row.cells, definitions) : row;
    if (checked.ok) valid.push(checked.value);
    else errors.push(checked.error);
  }

  const known = new Map<string, Known>(existing.map((customer) => [customer.externalId, knownOf(customer)]));
  const now = isoNow(ctx.now());
  const statements: BatchItem<'sqlite'>[] = [];
  const fresh = valid.filter((row, index) => !known.has(row.input.external_id) && valid.findIndex((other) => other.input.external_id === row.input.external_id) === index);
  const wallets = await newWallets(ctx, fresh.length, walletMnemonic);
  let ok = 0;
  for (const row of valid) {
    const externalId = row.input.external_id;
    const current = known.get(externalId);
    const profile = profileOf(row.input);
    if (!current) {
      const customer = { id: newId('cus'), tenantId, externalId, ...profile, status: row.status, wallet: { id: newId('wal'), ...wallets.shift()! } };
      statements.push(...newCustomerStatements(db, customer, now), ...valueWriteStatements(db, tenantId, customer.id, row.values, now));
      known.set(externalId, { id: customer.id, status: row.status ?? 'active', profile });
      ok += 1;
      continue;
    }
    if (row.status && row.status !== current.status && !canMoveCustomerStatus(current.status, row.status)) {
      errors.push({ row: row.row, message: `status: the customer is ${current.status} and cannot move to ${row.status}` });
      continue;
    }
    const changed = (Object.keys(profile) as (keyof CustomerProfile)[]).some((field) => profile[field] !== current.profile[field]);
    if (changed) statements.push(profileUpdateStatement(db, tenantId, externalId, profile, now));
    if (row.status && row.status !== current.status) statements.push(statusMoveStatement(db, tenantId, current.id, current.status, row.status, now));
    statements.push(...valueWriteStatements(db, tenantId, current.id, row.values, now));
    known.set(externalId, { id: current.id, status: row.status ?? current.status, profile: { ...current.profile, ...profile } });
    ok += 1;
  }
  return { statements, errors, ok };
}

const knownOf = (customer: Customer): Known => ({
  id: customer.id,
  status: customer.status,
  profile: { email: customer.email, username: customer.username, countryCode: customer.countryCode },
});

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
function customerRow(row: number, cells: ReadonlyMap<string, string>, definitions: readonly AttributeDefinition[]): Checked {
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
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]));
  const values: ValueWrite[] = [];
  for (const [column, raw] of cells) {
    if (!column.startsWith(ATTRIBUTE_COLUMN_PREFIX)) continue;
    const key = column.slice(ATTRIBUTE_COLUMN_PREFIX.length);
    const definition = byKey.get(key);
    if (!definition) return { ok: false, error: { row, message: `${column}: attribute "${key}" is not defined` } };
    const value = parseAttributeValue(definition.type, raw);
    if (!value.ok) return { ok: false, error: { row, message: `${column}: ${value.message} (attribute "${key}" is of type ${definition.type})` } };
    values.push({ definitionId: definition.id, stored: value.value });
  }
  return { ok: true, value: { row, input: parsed.data, status: status as CustomerStatus | undefined, values } };
}

/** Custodial wallets for `count` new customers: their derivation indexes taken at once, addresses derived from them. */
async function newWallets({ db }: ServiceContext, count: number, walletMnemonic: string) {
  if (count === 0) return [];
  const [reserved] = await reserveWalletIndexesStatement(db, count);
  if (!reserved) throw new Error('no wallet indexes reserved');
  const first = reserved.value - count + 1;
  return Promise.all(
    Array.from({ length: count }, async (_, offset) => {
      const derivationIndex = first + offset;
      const address = await custodialAddress(walletMnemonic, derivationIndex);
      return { address, derivationIndex };
    }),
  );
}
