import { entryReadBack, isInsufficientXp } from '../data/ledger';
import { ledgerEntryStatements } from '../data/ledger-entries';
import { namedBatch } from '../data/named-batch';
import { creditCanceledUpdate, creditForReversalQueries, isBeyondCredit, isLotChanged, lotReversedUpdate, lotStillWaitingGuard, pendingReversalInsert } from '../data/reversals';
import type { InternalTransaction, PointLot } from '../db/schema';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import type { ReversalView, ReverseCreditBody } from '../schemas/reversal';
import { toInternalTransactionView } from '../views/internal-transaction';
import type { ServiceContext } from './context';
import { enqueueOperations } from './settlement';

/**
 * Reversal of a credit (CONTRACT.md, Point lifecycle; docs/POINTS.md "Returns"). Decided on one
 * read of the credit, its lot and the balance, then written in one batch whose checks hold whatever
 * ran meanwhile: the lot's `reversed` never passes its amount (concurrent reversals beyond the
 * credit are 409), the balance never goes below zero (decided again on a fresh read), and a pending
 * credit's reversal is led by a guard that the credit still waits (decided again if it activated).
 */

/** Decisions made again after a concurrent change before giving up (a credit reversed in a loop). */
const MAX_ATTEMPTS = 5;

/** Credits a reversal applies to: what made a lot. */
const REVERSIBLE = new Set<InternalTransaction['type']>(['xp_earn', 'xp_bonus', 'xp_admin_adjust']);

const beyondCredit = (message = 'Reversals at the same time went beyond this credit') =>
  new ApiError('REVERSAL_EXCEEDS_CREDIT', message, { path: 'amount' });

type Decided = { tx: InternalTransaction | undefined; reversed: number; unrecovered: number; operationId?: string };

export async function reverseCredit(ctx: ServiceContext, transactionId: string, input: ReverseCreditBody): Promise<ReversalView> {
  for (let attempt = 1; ; attempt++) {
    try {
      const decided = await reverseOnce(ctx, transactionId, input);
      if (decided.operationId && decided.tx?.status === 'initialized') await enqueueOperations(ctx, [decided.operationId]);
      return {
        internal_transaction: decided.tx ? toInternalTransactionView(decided.tx, { blockchainTransactions: [] }) : null,
        reversed: String(decided.reversed),
        unrecovered: String(decided.unrecovered),
      };
    } catch (error) {
      if (isBeyondCredit(error)) throw beyondCredit();
      if (!(isLotChanged(error) || isInsufficientXp(error))) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ApiError('CONFLICT', 'The credit kept changing while it was being reversed: try again');
    }
  }
}

async function reverseOnce(ctx: ServiceContext, transactionId: string, input: ReverseCreditBody): Promise<Decided> {
  const { db, tenantId } = ctx;
  const { credit, lot, balance } = await namedBatch(db, creditForReversalQueries(db, tenantId, transactionId));
  const tx = credit[0];
  if (!tx) throw ApiError.notFound('Internal transaction');
  const found = lot[0];
  if (tx.amount <= 0 || !REVERSIBLE.has(tx.type)) throw new ApiError('NOT_REVERSIBLE', `A ${tx.type} of ${tx.amount} XP is not a credit: only earn, bonus and positive adjustments are reversed`);
  if (!found) throw new ApiError('NOT_REVERSIBLE', 'The credit was made before point lots existed: correct it with an XP adjustment');
  if (tx.status === 'failed') throw new ApiError('NOT_REVERSIBLE', 'The credit failed or was canceled: it holds nothing to reverse');
  const waiting = tx.status === 'pending' && found.activatedAt === null;
  if (!waiting && tx.status !== 'completed') throw new ApiError('CREDIT_SETTLING', 'The credit is being minted onchain: reverse it once it completes');
  const left = found.amount - found.reversed;
  const requested = input.amount ?? left;
  // A credit reversed in full has nothing left: a reversal without an amount is refused too, not a 201 taking nothing.
  if (requested > left || left === 0) throw beyondCredit(`Only ${left} XP of this credit of ${found.amount} is left to reverse`);
  const now = isoNow(ctx.now());
  const reason = input.reason ?? null;
  if (waiting) return reversePending(ctx, tx, found, requested, reason, now);
  // An active credit: its lot first, then the customer's other points, never below zero.
  const recovered = Math.min(requested, balance[0]?.xpBalance ?? 0);
  const entry = {
    id: newId('itx'),
    tenantId,
    userId: tx.userId ?? '',
    type: 'xp_reversal' as const,
    amount: -recovered,
    notes: reason,
    metadata: { reversed_transaction_id: tx.id, requested },
    mirrorOperationId: newId('op'),
  };
  const { readBack } = await namedBatch(db, {
    lot: lotReversedUpdate(db, found.id, requested, false, now),
    entry: recovered > 0 ? ledgerEntryStatements(db, entry, now) : undefined,
    readBack: recovered > 0 ? entryReadBack(db, { id: entry.id, tenantId }) : undefined,
  });
  return { tx: readBack?.[0], reversed: recovered, unrecovered: requested - recovered, operationId: entry.mirrorOperationId };
}

/** A pending credit: canceled whole when nothing of it is left, else a pending reversal of the part. */
async function reversePending(ctx: ServiceContext, tx: InternalTransaction, lot: PointLot, requested: number, reason: string | null, now: string): Promise<Decided> {
  const { db, tenantId } = ctx;
  const whole = requested === lot.remaining;
  const reversalId = newId('itx');
  const { readBack } = await namedBatch(db, {
    guard: lotStillWaitingGuard(db, lot.id),
    lot: lotReversedUpdate(db, lot.id, requested, !whole, now),
    write: whole
      ? creditCanceledUpdate(db, tenantId, tx.id, now)
      : pendingReversalInsert(db, { id: reversalId, tenantId, userId: tx.userId ?? '', amount: requested, creditId: tx.id, reason, now }),
    readBack: entryReadBack(db, { id: whole ? tx.id : reversalId, tenantId }),
  });
  return { tx: readBack[0], reversed: requested, unrecovered: 0 };
}
