import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { redemptions } from '../db/schema';
import { isInsufficientXp, ledgerEntryStatements } from '../data/ledger';
import {
  assembleRedemptions,
  findRedemption,
  findRedemptionRow,
  isAlreadyRefunded,
  isOutOfStock,
  isRedemptionRejected,
  listRedemptions as listRedemptionRows,
  loadRedemptionCandidate,
  redemptionGuardStatement,
  redemptionReadQueries,
  stockChangeStatement,
  type RedemptionWithDetails,
} from '../data/redemptions';
import { assertRedemptionMove } from '../domain/redemption-status';
import { assertCanRedeem } from '../domain/redemptions';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CreateRedemptionInput, RedemptionListQuery, RedemptionView } from '../schemas/redemption';
import { toRedemptionView } from '../views/redemption';

const redemptionNotFound = () => ApiError.notFound('Redemption');

function view(found: RedemptionWithDetails | undefined): RedemptionView {
  if (!found) throw redemptionNotFound();
  return toRedemptionView(found.redemption, found.details);
}

/** Loads what the checks need and runs them in order; returns the reward to redeem. */
async function checkedReward(db: Database, tenantId: string, input: CreateRedemptionInput) {
  const { customer, reward, minTier } = await loadRedemptionCandidate(db, tenantId, input.user_id, input.reward_id);
  if (!customer) throw new ApiError('NOT_FOUND', 'Customer not found', { path: 'user_id' });
  if (!reward) throw new ApiError('NOT_FOUND', 'Reward not found', { path: 'reward_id' });
  assertCanRedeem({ customer, reward, minTier });
  return reward;
}

/**
 * Redeems a reward for a customer. The checks run first (404s, then customer, reward, stock, tier,
 * balance); then ONE D1 batch re-checks the statuses and tier (guard), takes a unit of stock,
 * spends the XP (an `xp_redeem` ledger entry of -xp_cost) and records the redemption. Stock and
 * balance are CHECK constraints, so concurrent redemptions can never overspend either: the batch
 * that would is rolled back whole and answered with the matching 409.
 *
 * Off-chain rewards complete at once; a reward that delivers an onchain asset stays `initialized`
 * until settlement delivers it (or fails and refunds).
 */
export async function redeemReward(db: Database, tenantId: string, input: CreateRedemptionInput): Promise<RedemptionView> {
  const reward = await checkedReward(db, tenantId, input);
  const redemptionId = newId('red');
  const now = isoNow();
  const ids = { tenantId, redemptionId, userId: input.user_id, rewardId: reward.id };
  try {
    const [, , , , , ...read] = await db.batch([
      redemptionGuardStatement(db, ids),
      stockChangeStatement(db, tenantId, reward.id, -1),
      ...ledgerEntryStatements(db, { id: newId('itx'), tenantId, userId: input.user_id, type: 'xp_redeem', amount: -reward.xpCost, redemptionId, notes: `Redeemed: ${reward.title}` }),
      db.insert(redemptions).values({
        id: redemptionId,
        tenantId,
        userId: input.user_id,
        rewardId: reward.id,
        status: reward.onchainAssetId ? 'initialized' : 'completed',
        xpSpent: reward.xpCost,
        createdAt: now,
        updatedAt: now,
      }),
      ...redemptionReadQueries(db, tenantId, eq(redemptions.id, redemptionId)),
    ]);
    return view(assembleRedemptions(read)[0]);
  } catch (error) {
    if (isOutOfStock(error)) throw new ApiError('OUT_OF_STOCK', 'The reward is out of stock', { path: 'reward_id' });
    if (isInsufficientXp(error)) {
      throw new ApiError('INSUFFICIENT_XP', `The customer's XP balance is below the reward's cost of ${reward.xpCost}`, { path: 'user_id' });
    }
    if (isRedemptionRejected(error)) {
      // Something changed since the checks: run them again on fresh data for the precise answer.
      await checkedReward(db, tenantId, input);
      throw new ApiError('CONFLICT', 'The customer or reward changed during the redemption; retry');
    }
    throw error;
  }
}

export async function getRedemption(db: Database, tenantId: string, id: string): Promise<RedemptionView> {
  return view(await findRedemption(db, tenantId, id));
}

/** Newest first; filters `status`, `user_id`, `reward_id`. */
export async function listRedemptions(db: Database, tenantId: string, query: RedemptionListQuery): Promise<Page<RedemptionView>> {
  const filters = { status: query.status, userId: query.user_id, rewardId: query.reward_id };
  const { items, total } = await listRedemptionRows(db, tenantId, filters, query);
  return pageOf(items.map(view), total, query);
}

/**
 * Cancels a redemption and gives everything back in ONE batch: status `canceled`, a compensating
 * completed `xp_redeem` entry of +xp_spent (the ledger is append-only; a refund is not lifetime XP)
 * and the unit of stock. A unique index allows one refund per redemption, so two racing cancels
 * cannot both refund: the loser is rolled back and answered 409.
 */
export async function cancelRedemption(db: Database, tenantId: string, id: string): Promise<RedemptionView> {
  const redemption = await findRedemptionRow(db, tenantId, id);
  if (!redemption) throw redemptionNotFound();
  assertRedemptionMove(redemption.status, 'canceled');
  const where = and(eq(redemptions.id, id), eq(redemptions.tenantId, tenantId), eq(redemptions.status, redemption.status));
  try {
    const [, , , , ...read] = await db.batch([
      db.update(redemptions).set({ status: 'canceled', updatedAt: isoNow() }).where(where),
      ...ledgerEntryStatements(db, {
        id: newId('itx'),
        tenantId,
        userId: redemption.userId,
        type: 'xp_redeem',
        amount: redemption.xpSpent,
        redemptionId: id,
        notes: 'Refund: redemption canceled',
      }),
      stockChangeStatement(db, tenantId, redemption.rewardId, 1),
      ...redemptionReadQueries(db, tenantId, eq(redemptions.id, id)),
    ]);
    return view(assembleRedemptions(read)[0]);
  } catch (error) {
    if (isAlreadyRefunded(error)) throw new ApiError('INVALID_STATUS_TRANSITION', 'The redemption was already canceled or refunded');
    throw error;
  }
}
