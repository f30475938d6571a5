import { and, eq, sql } from 'drizzle-orm';
import type { OnchainContext } from '../chain/context';
import type { Database } from '../db/client';
import { internalTransactions, onchainOperations, redemptions, type OnchainAsset, type Reward } from '../db/schema';
import type { ResponseWithWrite } from '../data/idempotency';
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
  redemptionShowsAsRead,
  stockChangeStatement,
  type RedemptionWithDetails,
} from '../data/redemptions';
import { rewardDelivery } from '../domain/settlement';
import { assertRedemptionMove } from '../domain/redemption-status';
import { assertCanRedeem } from '../domain/redemptions';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CreateRedemptionInput, RedemptionListQuery, RedemptionView } from '../schemas/redemption';
import { toRedemptionView } from '../views/redemption';
import { enqueueOperations } from './settlement';

const redemptionNotFound = () => ApiError.notFound('Redemption');

function view(found: RedemptionWithDetails | undefined): RedemptionView {
  if (!found) throw redemptionNotFound();
  return toRedemptionView(found.redemption, found.details);
}

/** Loads what the checks need and runs them in order; returns the reward, its asset, the customer (and wallet) and the tenant. */
async function checkedReward(db: Database, tenantId: string, input: CreateRedemptionInput) {
  const { customer, reward, minTier, asset, wallet, tenant } = await loadRedemptionCandidate(db, tenantId, input.user_id, input.reward_id);
  if (!customer) throw new ApiError('NOT_FOUND', 'Customer not found', { path: 'user_id' });
  if (!reward) throw new ApiError('NOT_FOUND', 'Reward not found', { path: 'reward_id' });
  assertCanRedeem({ customer, reward, minTier });
  if (asset && (asset.status === 'inactive' || asset.status === 'failed')) {
    throw new ApiError('REWARD_NOT_ACTIVE', `The reward's onchain asset is ${asset.status}; it cannot be delivered`, { path: 'reward_id' });
  }
  return { reward, asset, wallet, customer, tenant };
}

/**
 * The operation that delivers an onchain reward (CONTRACT.md: amounts from the reward's metadata).
 * A customer without a custodial wallet gets no recipient: the operation fails and refunds.
 */
function deliveryOperation(db: Database, ids: { tenantId: string; redemptionId: string; transactionId: string; operationId: string }, asset: OnchainAsset, reward: Reward, recipient: string | undefined) {
  const delivery = rewardDelivery(asset, reward.metadata);
  const now = isoNow();
  return db.insert(onchainOperations).values({
    id: ids.operationId, tenantId: ids.tenantId, kind: 'mint', status: 'queued', chainId: asset.chainId, onchainAssetId: asset.id,
    internalTransactionId: ids.transactionId, redemptionId: ids.redemptionId, recipient: recipient ?? null, amount: delivery.amount, tokenId: delivery.tokenId, createdAt: now, updatedAt: now,
  });
}

/**
 * Redeems a reward for a customer. The checks run first (404s, then customer, reward, stock, tier,
 * balance); then ONE D1 batch re-checks the statuses and tier (guard), takes a unit of stock,
 * spends the XP (an `xp_redeem` ledger entry of -xp_cost) and records the redemption. Stock and
 * balance are CHECK constraints, so concurrent redemptions can never overspend either: the batch
 * that would is rolled back whole and answered with the matching 409.
 *
 * Off-chain, it completes at once. A reward with an onchain asset, or XP mirrored onto an XP token,
 * makes it `initialized` (the XP reserved at once): the reward is delivered first, then the XP
 * burned, and the redemption completes or fails (refunded) with its settlement.
 */
export async function redeemReward(
  db: Database,
  ctx: OnchainContext,
  tenantId: string,
  input: CreateRedemptionInput,
  response?: ResponseWithWrite<RedemptionView>,
): Promise<RedemptionView> {
  const { reward, asset, wallet, customer, tenant } = await checkedReward(db, tenantId, input);
  const redemptionId = newId('red');
  const transactionId = newId('itx');
  const deliveryId = asset ? newId('op') : undefined;
  const mirrorOperationId = newId('op');
  const now = isoNow();
  const ids = { tenantId, redemptionId, userId: input.user_id, rewardId: reward.id };
  const row = { id: redemptionId, tenantId, userId: input.user_id, rewardId: reward.id, xpSpent: reward.xpCost, createdAt: now, updatedAt: now };
  // Off-chain, the response is rendered now from what was read and is written, and stored with the
  // write if the batch confirms it (completed at once, reward, customer and tenant unchanged).
  const details = !asset && tenant ? { reward, asset, customer, tenant } : undefined;
  const trailing =
    asset && deliveryId
      ? deliveryOperation(db, { tenantId, redemptionId, transactionId, operationId: deliveryId }, asset, reward, wallet?.address)
      : details && response?.statement(db, toRedemptionView({ ...row, status: 'completed', seq: null }, details), redemptionShowsAsRead(db, tenantId, redemptionId, details));
  try {
    const [, , , , , , rows, rewardRows, assetRows, last] = await db.batch([
      redemptionGuardStatement(db, ids),
      stockChangeStatement(db, tenantId, reward.id, -1),
      ...ledgerEntryStatements(db, {
        id: transactionId, tenantId, userId: input.user_id, type: 'xp_redeem', amount: -reward.xpCost, redemptionId,
        notes: `Redeemed: ${reward.title}`, mirrorOperationId, mirrorAfterOperationId: deliveryId, awaitsSettlement: asset !== undefined,
      }),
      db.insert(redemptions).values({
        ...row,
        // The redemption settles with its ledger entry: `initialized` exactly when the entry is.
        status: sql`(select ${internalTransactions.status} from ${internalTransactions} where ${internalTransactions.id} = ${transactionId})`,
      }),
      ...redemptionReadQueries(db, tenantId, eq(redemptions.id, redemptionId)),
      // Last, so the statements before it keep their positions whether or not there is one: the
      // delivery of an onchain reward, or else the stored response (its RETURNING rows, an array).
      ...(trailing ? [trailing] : []),
    ]);
    if (Array.isArray(last)) response?.settle(last);
    const found = assembleRedemptions([rows, rewardRows, assetRows])[0];
    if (found?.redemption.status === 'initialized') await enqueueOperations(ctx, [deliveryId ?? mirrorOperationId]);
    return view(found);
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
export async function cancelRedemption(db: Database, ctx: OnchainContext, tenantId: string, id: string): Promise<RedemptionView> {
  const redemption = await findRedemptionRow(db, tenantId, id);
  if (!redemption) throw redemptionNotFound();
  assertRedemptionMove(redemption.status, 'canceled');
  const where = and(eq(redemptions.id, id), eq(redemptions.tenantId, tenantId), eq(redemptions.status, redemption.status));
  const refundId = newId('itx');
  const mirrorOperationId = newId('op');
  try {
    const [, , , , , ...read] = await db.batch([
      db.update(redemptions).set({ status: 'canceled', updatedAt: isoNow() }).where(where),
      ...ledgerEntryStatements(db, {
        id: refundId,
        mirrorOperationId,
        tenantId,
        userId: redemption.userId,
        type: 'xp_redeem',
        amount: redemption.xpSpent,
        redemptionId: id,
        notes: 'Refund: redemption canceled',
      }),
      stockChangeStatement(db, tenantId, redemption.rewardId, 1),
      db.select({ status: internalTransactions.status }).from(internalTransactions).where(eq(internalTransactions.id, refundId)),
      ...redemptionReadQueries(db, tenantId, eq(redemptions.id, id)),
    ]);
    const [[refund], ...rows] = read;
    // With an XP token the refund is minted back like any credit.
    if (refund?.status === 'initialized') await enqueueOperations(ctx, [mirrorOperationId]);
    return view(assembleRedemptions(rows)[0]);
  } catch (error) {
    if (isAlreadyRefunded(error)) throw new ApiError('INVALID_STATUS_TRANSITION', 'The redemption was already canceled or refunded');
    throw error;
  }
}
