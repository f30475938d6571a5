import { and, eq } from 'drizzle-orm';
import { customers, customerStatuses, type CustomerStatus, type InternalTransaction, type TransactionType } from '../db/schema';
import type { ResponseWithWrite } from '../data/response-with-write';
import { completedEntryRow, customerGuardStatement, entryReadBack, isCustomerRejected, isInsufficientXp, storedIfWrittenAsCompleted } from '../data/ledger';
import { ledgerEntryStatements } from '../data/ledger-entries';
import { rulesVersionGuard } from '../data/earning-evaluation';
import { namedBatch } from '../data/named-batch';
import type { TenantRules } from '../data/rule-cache';
import { EARNING_STATUSES } from '../domain/ledger';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import type { InternalTransactionView } from '../schemas/internal-transaction';
import { toInternalTransactionView } from '../views/internal-transaction';
import type { ServiceContext } from './context';
import { creditTimes, withProgram } from './program-version';
import { enqueueOperations } from './settlement';

export type EarnXpInput = { userId: string; type: 'xp_earn' | 'xp_bonus'; amount: number; notes?: string; metadata?: unknown };
export type AdjustXpInput = { userId: string; amount: number; notes: string };

type Entry = { userId: string; type: TransactionType; amount: number; notes?: string; metadata?: unknown };
/** Where the customer id came from, so a 404 names the field at fault (`user_id` on the gateway, the path on the portal). */
type Options = { allowedStatuses: readonly CustomerStatus[]; customerPath: string; response?: ResponseWithWrite<InternalTransactionView> };

/**
 * Credits earned or bonus XP (gateway). Only an active or reinstated customer earns. With an XP
 * token the entry is `initialized` and counts once its mint settles. `response`: see appendEntry.
 */
export function earnXp(ctx: ServiceContext, input: EarnXpInput, response?: ResponseWithWrite<InternalTransactionView>): Promise<InternalTransactionView> {
  return appendEntry(ctx, input, { allowedStatuses: EARNING_STATUSES, customerPath: 'user_id', response });
}

/**
 * An admin correction (portal), positive or negative, never below a zero balance. Allowed whatever
 * the customer's status: staff must be able to claw back XP from a suspended account.
 */
export function adjustXp(ctx: ServiceContext, input: AdjustXpInput): Promise<InternalTransactionView> {
  return appendEntry(ctx, { ...input, type: 'xp_admin_adjust' }, { allowedStatuses: customerStatuses, customerPath: '' });
}

/**
 * One D1 batch (one transaction): the customer guard, the ledger entry with its balance move, and a
 * read-back of the new row. Any failing part rolls the whole batch back, so there is no window in
 * which a status change or a concurrent spend can interleave. With `response`, the batch also
 * stores the response of an entry that completes at once (the usual off-chain case): it is
 * rendered from the values written, and stored only if the entry was written completed.
 */
async function appendEntry(ctx: ServiceContext, entry: Entry, options: Options): Promise<InternalTransactionView> {
  // A credit is a lot whose times come from the tenant's settings as cached, confirmed in the batch.
  if (entry.amount > 0) return withProgram(ctx, (rules) => writeEntry(ctx, entry, options, rules));
  return writeEntry(ctx, entry, options);
}

async function writeEntry(ctx: ServiceContext, entry: Entry, options: Options, rules?: TenantRules): Promise<InternalTransactionView> {
  const { db, tenantId } = ctx;
  const at = ctx.now();
  const lot = rules && { lotId: newId('lot'), ...creditTimes(rules, at) };
  const ledgerEntry = { id: newId('itx'), tenantId, mirrorOperationId: newId('op'), ...entry, lot };
  const { id, mirrorOperationId } = ledgerEntry;
  const now = isoNow(at);
  const { response } = options;
  const { readBack, stored } = await namedBatch(db, {
    program: rules && rulesVersionGuard(db, { tenantId, version: rules.version }),
    guard: customerGuardStatement(db, tenantId, entry.userId, options.allowedStatuses),
    entry: ledgerEntryStatements(db, ledgerEntry, now),
    readBack: entryReadBack(db, { id, tenantId }),
    stored: response?.statement(db, transactionView(completedEntryRow(ledgerEntry, now)), { completion: storedIfWrittenAsCompleted, values: { entryId: id, tenantId } }),
  }).catch(async (error: unknown) => {
    if (isInsufficientXp(error)) throw new ApiError('INSUFFICIENT_XP', 'The XP balance is too low for this adjustment', { path: 'amount' });
    if (isCustomerRejected(error)) throw await customerRejection(ctx, entry.userId, options.customerPath);
    throw error;
  });
  response?.settle(stored);
  const tx = readBack[0];
  if (!tx) throw new Error('ledger entry vanished after insert');
  if (tx.status === 'initialized') await enqueueOperations(ctx, [mirrorOperationId]);
  return transactionView(tx);
}

/** A new entry as its writer answers it: no onchain transactions yet. */
const transactionView = (tx: InternalTransaction) => toInternalTransactionView(tx, { blockchainTransactions: [] });

/** Why the guard refused: no such customer in the tenant (404), or a status that may not earn (409). */
export async function customerRejection({ db, tenantId }: ServiceContext, userId: string, path: string): Promise<ApiError> {
  const [customer] = await db
    .select({ status: customers.status })
    .from(customers)
    .where(and(eq(customers.id, userId), eq(customers.tenantId, tenantId)))
    .limit(1);
  return customerRefusal(customer?.status, path);
}

/** The refusal for a customer who is not the tenant's (`undefined`: 404) or whose status may not earn (409). */
export function customerRefusal(status: CustomerStatus | undefined, path: string): ApiError {
  if (status === undefined) return new ApiError('NOT_FOUND', 'Customer not found', { path });
  return new ApiError('CUSTOMER_NOT_ACTIVE', `The customer is ${status} and cannot earn XP`, { path });
}
