import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { internalTransactions, onchainOperations, redemptions, type OnchainAsset, type Reward } from '../db/schema';
import type { ResponseWithWrite } from '../data/response-with-write';
import { isInsufficientXp } from '../data/ledger';
import { ledgerEntryStatements } from '../data/ledger-entries';
import { namedBatch } from '../data/named-batch';
import { rememberedRewardGuard, redemptionGuardStatement, redemptionInsertStatement, redemptionShown, stockChangeStatement, storedIfRedemptionShows, storedWithUserBrief } from '../data/redemption-writes';
import { forgetReward, recallReward, rememberReward, type RememberedReward } from '../data/reward-cache';
import {
  assembleRedemptions,
  findRedemption,
  findRedemptionRow,
  isAlreadyRefunded,
  isOutOfStock,
  isRedemptionRejected,
  listRedemptions as listRedemptionRows,
  loadRedemptionCandidate,
  redemptionByIdReads,
  redemptionRowById,
  type RedemptionReadRows,
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
import type { ServiceContext } from './context';
import { enqueueOperations } from './settlement';

const redemptionNotFound = () => ApiError.notFound('Redemption');

function view(found: RedemptionWithDetails | undefined): RedemptionView {
  if (!found) throw redemptionNotFound();
  return toRedemptionView(found.redemption, found.details);
}

/** Loads what the checks need and runs them in order; returns the reward, its asset, the customer (and wallet) and the tenant. */
async function checkedReward({ db, tenantId }: ServiceContext, input: CreateRedemptionInput) {
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
function deliveryOperation(db: Database, ids: { tenantId: string; redemptionId: string; transactionId: string; operationId: string }, asset: OnchainAsset, reward: Reward, recipient: string | undefined, now: string) {
  const delivery = rewardDelivery(asset, reward.metadata);
  return db.insert(onchainOperations).values({
    id: ids.operationId, tenantId: ids.tenantId, kind: 'mint', status: 'queued', chainId: asset.chainId, onchainAssetId: asset.id,
    internalTransactionId: ids.transactionId, redemptionId: ids.redemptionId, recipient: recipient ?? null, amount: delivery.amount, tokenId: delivery.tokenId, createdAt: now, updatedAt: now,
  });
}

/** One redemption's ids and row, as both paths write it, created `now`. */
function newRedemption(tenantId: string, userId: string, reward: Pick<Reward, 'id' | 'xpCost'>, now: string) {
  const redemptionId = newId('red');
  const ids = { tenantId, redemptionId, userId, rewardId: reward.id, transactionId: newId('itx'), mirrorOperationId: newId('op') };
  const row = { id: redemptionId, tenantId, userId, rewardId: reward.id, xpSpent: reward.xpCost, createdAt: now, updatedAt: now };
  return { ids, row };
}

type NewRedemption = ReturnType<typeof newRedemption>;

/**
 * What follows a redemption's guard in its batch: a unit of stock, the XP spent (an `xp_redeem`
 * ledger entry of -xp_cost) and the redemption (settling with its entry).
 */
function spendStatements(db: Database, { ids, row }: NewRedemption, reward: Pick<Reward, 'title' | 'xpCost'>, delivery?: { operationId: string }) {
  return [
    stockChangeStatement(db, ids.tenantId, ids.rewardId, -1),
    ...ledgerEntryStatements(db, {
      id: ids.transactionId, tenantId: ids.tenantId, userId: ids.userId, type: 'xp_redeem', amount: -reward.xpCost, redemptionId: ids.redemptionId,
      notes: `Redeemed: ${reward.title}`, mirrorOperationId: ids.mirrorOperationId, mirrorAfterOperationId: delivery?.operationId, awaitsSettlement: delivery !== undefined,
    }, row.createdAt),
    redemptionInsertStatement(db, { ...row, transactionId: ids.transactionId }),
  ] as const;
}

/** The 409 a spend's constraint answers with, if it was one. */
function spendRefusal(error: unknown, xpCost: number): ApiError | undefined {
  if (isOutOfStock(error)) return new ApiError('OUT_OF_STOCK', 'The reward is out of stock', { path: 'reward_id' });
  if (isInsufficientXp(error)) return new ApiError('INSUFFICIENT_XP', `The customer's XP balance is below the reward's cost of ${xpCost}`, { path: 'user_id' });
  return undefined;
}

/** The redemption read back by its batch; its settlement is queued when it awaits one. */
async function settled(ctx: ServiceContext, readBack: RedemptionReadRows, operationId: string): Promise<RedemptionView> {
  const found = assembleRedemptions(readBack)[0];
  if (found?.redemption.status === 'initialized') await enqueueOperations(ctx, [operationId]);
  return view(found);
}

/**
 * Stand-ins for the customer's username and email in a view rendered before they are read
 * (storedWithUserBrief), unguessable per isolate. Made on first use: Workers allow no random values
 * in global scope.
 */
let marks: { username: string; email: string } | undefined;
const briefMarks = () => (marks ??= { username: `username-${crypto.randomUUID()}`, email: `email-${crypto.randomUUID()}` });

/**
 * A redemption of a reward this isolate remembers (data/reward-cache.ts): ONE round trip, the
 * spend's batch alone, led by a guard that also confirms the reward and tenant are as remembered.
 * Undefined when that guard refused (the memory is dropped): the full path then runs the checks
 * and gives the precise answer.
 */
async function redeemRemembered(ctx: ServiceContext, input: CreateRedemptionInput, { reward, tenant }: RememberedReward, response?: ResponseWithWrite<RedemptionView>) {
  const { db } = ctx;
  const redemption = newRedemption(tenant.id, input.user_id, reward, isoNow(ctx.now()));
  const { ids, row } = redemption;
  const { username, email } = briefMarks();
  const customer = { id: input.user_id, username, email };
  const completion = response?.statement(db, toRedemptionView({ ...row, status: 'completed', seq: null }, { reward, asset: undefined, customer, tenant }), {
    completion: storedWithUserBrief,
    values: { redemptionId: ids.redemptionId, tenantId: tenant.id, userId: ids.userId, usernameMark: JSON.stringify(username), emailMark: JSON.stringify(email) },
  });
  const asRemembered = { title: reward.title, description: reward.description, xpCost: reward.xpCost, tenantName: tenant.name, tenantSlug: tenant.slug };
  try {
    const { readBack, stored } = await namedBatch(db, {
      guard: rememberedRewardGuard(db, { ...ids, ...asRemembered }),
      spend: spendStatements(db, redemption, reward),
      // The reward is as remembered (the guard), so only the row is read back.
      readBack: redemptionRowById(db, { tenantId: tenant.id, id: ids.redemptionId }),
      stored: completion,
    });
    response?.settle(stored);
    return await settled(ctx, [readBack, [reward], []], ids.mirrorOperationId);
  } catch (error) {
    if (!isRedemptionRejected(error)) throw spendRefusal(error, reward.xpCost) ?? error;
    forgetReward(tenant.id, reward.id);
    return undefined;
  }
}

/**
 * Redeems a reward for a customer. The checks run first (404s, then customer, reward, stock, tier,
 * balance); then ONE D1 batch re-checks the statuses and tier (guard), takes a unit of stock,
 * spends the XP (an `xp_redeem` ledger entry of -xp_cost) and records the redemption. Stock and
 * balance are CHECK constraints, so concurrent redemptions can never overspend either: the batch
 * that would is rolled back whole and answered with the matching 409. An off-chain reward checked
 * once is remembered, and its next redemptions are that batch alone (redeemRemembered).
 *
 * Off-chain, it completes at once. A reward with an onchain asset, or XP mirrored onto an XP token,
 * makes it `initialized` (the XP reserved at once): the reward is delivered first, then the XP
 * burned, and the redemption completes or fails (refunded) with its settlement.
 */
export async function redeemReward(ctx: ServiceContext, input: CreateRedemptionInput, response?: ResponseWithWrite<RedemptionView>): Promise<RedemptionView> {
  const { db, tenantId } = ctx;
  const remembered = recallReward(tenantId, input.reward_id);
  const fast = remembered && (await redeemRemembered(ctx, input, remembered, response));
  if (fast) return fast;
  const { reward, asset, wallet, customer, tenant } = await checkedReward(ctx, input);
  const now = isoNow(ctx.now());
  const redemption = newRedemption(tenantId, input.user_id, reward, now);
  const { ids, row } = redemption;
  const delivery = asset && { operationId: newId('op') };
  // Off-chain, the response is rendered now from what was read and is written, and stored with the
  // write if the batch confirms it (completed at once, reward, customer and tenant unchanged).
  const details = !asset && tenant ? { reward, asset, customer, tenant } : undefined;
  if (details) rememberReward({ reward, tenant: details.tenant });
  try {
    const { readBack, stored } = await namedBatch(db, {
      guard: redemptionGuardStatement(db, ids),
      spend: spendStatements(db, redemption, reward, delivery),
      readBack: redemptionByIdReads(db, { tenantId, id: ids.redemptionId }),
      // At most one of the two: an onchain reward is delivered; an off-chain one's response is stored with the write.
      delivery: asset && delivery && deliveryOperation(db, { ...ids, operationId: delivery.operationId }, asset, reward, wallet?.address, now),
      stored:
        details &&
        response?.statement(db, toRedemptionView({ ...row, status: 'completed', seq: null }, details), {
          completion: storedIfRedemptionShows,
          values: redemptionShown(ids.redemptionId, details),
        }),
    });
    response?.settle(stored);
    return await settled(ctx, readBack, delivery?.operationId ?? ids.mirrorOperationId);
  } catch (error) {
    const refusal = spendRefusal(error, reward.xpCost);
    if (refusal) throw refusal;
    if (isRedemptionRejected(error)) {
      // Something changed since the checks: run them again on fresh data for the precise answer.
      await checkedReward(ctx, input);
      throw new ApiError('CONFLICT', 'The customer or reward changed during the redemption; retry');
    }
    throw error;
  }
}

export async function getRedemption({ db, tenantId }: ServiceContext, id: string): Promise<RedemptionView> {
  return view(await findRedemption(db, tenantId, id));
}

/** Newest first; filters `status`, `user_id`, `reward_id`. */
export async function listRedemptions({ db, tenantId }: ServiceContext, query: RedemptionListQuery): Promise<Page<RedemptionView>> {
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
export async function cancelRedemption(ctx: ServiceContext, id: string): Promise<RedemptionView> {
  const { db, tenantId } = ctx;
  const redemption = await findRedemptionRow(db, tenantId, id);
  if (!redemption) throw redemptionNotFound();
  assertRedemptionMove(redemption.status, 'canceled');
  const where = and(eq(redemptions.id, id), eq(redemptions.tenantId, tenantId), eq(redemptions.status, redemption.status));
  const refundId = newId('itx');
  const mirrorOperationId = newId('op');
  const now = isoNow(ctx.now());
  try {
    const { refundStatus, readBack } = await namedBatch(db, {
      cancel: db.update(redemptions).set({ status: 'canceled', updatedAt: now }).where(where),
      refund: ledgerEntryStatements(
        db,
        { id: refundId, mirrorOperationId, tenantId, userId: redemption.userId, type: 'xp_redeem', amount: redemption.xpSpent, redemptionId: id, notes: 'Refund: redemption canceled' },
        now,
      ),
      stock: stockChangeStatement(db, tenantId, redemption.rewardId, 1),
      refundStatus: db.select({ status: internalTransactions.status }).from(internalTransactions).where(eq(internalTransactions.id, refundId)),
      readBack: redemptionByIdReads(db, { tenantId, id }),
    });
    // With an XP token the refund is minted back like any credit.
    if (refundStatus[0]?.status === 'initialized') await enqueueOperations(ctx, [mirrorOperationId]);
    return view(assembleRedemptions(readBack)[0]);
  } catch (error) {
    if (isAlreadyRefunded(error)) throw new ApiError('INVALID_STATUS_TRANSITION', 'The redemption was already canceled or refunded');
    throw error;
  }
}
