import { and, eq } from 'drizzle-orm';
import type { OnchainContext } from '../chain/context';
import type { Database } from '../db/client';
import { customers, customerStatuses, internalTransactions, type CustomerStatus, type TransactionType } from '../db/schema';
import { customerGuardStatement, isCustomerRejected, isInsufficientXp, ledgerEntryStatements } from '../data/ledger';
import { EARNING_STATUSES } from '../domain/ledger';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import type { InternalTransactionView } from '../schemas/internal-transaction';
import { toInternalTransactionView } from '../views/internal-transaction';
import { enqueueOperations } from './settlement';

export type EarnXpInput = { userId: string; type: 'xp_earn' | 'xp_bonus'; amount: number; notes?: string; metadata?: unknown };
export type AdjustXpInput = { userId: string; amount: number; notes: string };

type Entry = { userId: string; type: TransactionType; amount: number; notes?: string; metadata?: unknown };
/** Where the customer id came from, so a 404 names the field at fault (`user_id` on the gateway, the path on the portal). */
type Options = { allowedStatuses: readonly CustomerStatus[]; customerPath: string };

/**
 * Credits earned or bonus XP (gateway). Only an active or reinstated customer earns. With an XP
 * token the entry is `initialized` and counts once its mint settles.
 */
export function earnXp(db: Database, ctx: OnchainContext, tenantId: string, input: EarnXpInput): Promise<InternalTransactionView> {
  return appendEntry(db, ctx, tenantId, input, { allowedStatuses: EARNING_STATUSES, customerPath: 'user_id' });
}

/**
 * An admin correction (portal), positive or negative, never below a zero balance. Allowed whatever
 * the customer's status: staff must be able to claw back XP from a suspended account.
 */
export function adjustXp(db: Database, ctx: OnchainContext, tenantId: string, input: AdjustXpInput): Promise<InternalTransactionView> {
  return appendEntry(db, ctx, tenantId, { ...input, type: 'xp_admin_adjust' }, { allowedStatuses: customerStatuses, customerPath: '' });
}

/**
 * One D1 batch (one transaction): the customer guard, the ledger entry with its balance move, and a
 * read-back of the new row. Any failing part rolls the whole batch back, so there is no window in
 * which a status change or a concurrent spend can interleave.
 */
async function appendEntry(db: Database, ctx: OnchainContext, tenantId: string, entry: Entry, options: Options): Promise<InternalTransactionView> {
  const id = newId('itx');
  const mirrorOperationId = newId('op');
  const [, , , , rows] = await db
    .batch([
      customerGuardStatement(db, tenantId, entry.userId, options.allowedStatuses),
      ...ledgerEntryStatements(db, { id, tenantId, mirrorOperationId, ...entry }),
      db.select().from(internalTransactions).where(and(eq(internalTransactions.id, id), eq(internalTransactions.tenantId, tenantId))),
    ])
    .catch(async (error: unknown) => {
      if (isInsufficientXp(error)) throw new ApiError('INSUFFICIENT_XP', 'The XP balance is too low for this adjustment', { path: 'amount' });
      if (isCustomerRejected(error)) throw await customerRejection(db, tenantId, entry.userId, options.customerPath);
      throw error;
    });
  const tx = rows[0];
  if (!tx) throw new Error('ledger entry vanished after insert');
  if (tx.status === 'initialized') await enqueueOperations(ctx, [mirrorOperationId]);
  return toInternalTransactionView(tx, { blockchainTransactions: [] });
}

/** Why the guard refused: no such customer in the tenant (404), or a status that may not earn (409). */
async function customerRejection(db: Database, tenantId: string, userId: string, path: string): Promise<ApiError> {
  const [customer] = await db
    .select({ status: customers.status })
    .from(customers)
    .where(and(eq(customers.id, userId), eq(customers.tenantId, tenantId)))
    .limit(1);
  if (!customer) return new ApiError('NOT_FOUND', 'Customer not found', { path });
  return new ApiError('CUSTOMER_NOT_ACTIVE', `The customer is ${customer.status} and cannot earn XP`, { path });
}
