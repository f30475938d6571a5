import { and, count, desc, eq, exists, inArray, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  customerAssetBalances,
  deployLimitGuard,
  internalTransactions,
  onchainAssets,
  onchainContracts,
  onchainOperations,
  rewards,
  type OnchainAsset,
  type OnchainAssetStatus,
  type OnchainAssetType,
  type OnchainOperationStatus,
} from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';
import { abortedByTrigger, violatesCheck } from './db-errors';
import { ONE_ROW, selectedRow } from './insert-select';
import { namedBatch } from './named-batch';

export type OnchainAssetInsert = typeof onchainAssets.$inferInsert;
export type OnchainOperationInsert = typeof onchainOperations.$inferInsert;
export type OnchainAssetChanges = Partial<Pick<OnchainAssetInsert, 'name' | 'symbol' | 'metadata' | 'status' | 'updatedAt'>>;

/** Operations still on their way: while one exists, its asset must stay (the settlement core will read it). */
export const UNFINISHED_OPERATION_STATUSES = ['waiting', 'queued', 'submitted'] as const satisfies readonly OnchainOperationStatus[];

const ofTenant = (tenantId: string, id: string) => and(eq(onchainAssets.id, id), eq(onchainAssets.tenantId, tenantId));

export type OnchainAssetFilters = { type?: OnchainAssetType; chain_id?: number; key?: string };

/** Newest first, with the optional filters; rows and total in one round trip. */
export async function listOnchainAssets(db: Database, tenantId: string, params: PageParams & OnchainAssetFilters) {
  const where = and(
    eq(onchainAssets.tenantId, tenantId),
    params.type ? eq(onchainAssets.type, params.type) : undefined,
    params.chain_id !== undefined ? eq(onchainAssets.chainId, params.chain_id) : undefined,
    params.key !== undefined ? eq(onchainAssets.key, params.key) : undefined,
  );
  const [rows, [total]] = await db.batch([
    db.select().from(onchainAssets).where(where).orderBy(desc(onchainAssets.createdAt), desc(onchainAssets.id)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(onchainAssets).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

export async function findOnchainAsset(db: Database, tenantId: string, id: string): Promise<OnchainAsset | undefined> {
  const [row] = await db.select().from(onchainAssets).where(ofTenant(tenantId, id)).limit(1);
  return row;
}

/**
 * Whether the key, and the (chain, address) pair when given, are already taken in the tenant, and
 * whether another tenant holds the contract (onchain_contracts): one round trip.
 */
export async function findCreateConflicts(db: Database, tenantId: string, wanted: { key?: string; chainId: number; assetAddress?: string }) {
  const [byKey, byAddress, owners] = await db.batch([
    db.select({ id: onchainAssets.id }).from(onchainAssets).where(and(eq(onchainAssets.tenantId, tenantId), eq(onchainAssets.key, wanted.key ?? ''))).limit(1),
    db
      .select({ id: onchainAssets.id })
      .from(onchainAssets)
      .where(and(eq(onchainAssets.tenantId, tenantId), eq(onchainAssets.chainId, wanted.chainId), eq(onchainAssets.assetAddress, wanted.assetAddress ?? '')))
      .limit(1),
    db
      .select({ tenantId: onchainContracts.tenantId })
      .from(onchainContracts)
      .where(and(eq(onchainContracts.chainId, wanted.chainId), eq(onchainContracts.address, wanted.assetAddress ?? '')))
      .limit(1),
  ]);
  return {
    keyTaken: wanted.key !== undefined && byKey.length > 0,
    addressTaken: wanted.assetAddress !== undefined && byAddress.length > 0,
    heldElsewhere: owners.some((owner) => owner.tenantId !== tenantId),
  };
}

/** True when a write was refused because another tenant holds the contract (the triggers of src/db/sql/onchain-ownership.sql). */
export function isContractHeldElsewhere(error: unknown): boolean {
  return abortedByTrigger(error, 'onchain_contract_taken');
}

/** True when a deploy's batch was refused because the tenant has made as many platform deploys as allowed. */
export function isDeployLimitReached(error: unknown): boolean {
  return violatesCheck(error, 'onchain_deploy_limit');
}

export async function insertOnchainAsset(db: Database, values: OnchainAssetInsert): Promise<OnchainAsset> {
  const [row] = await db.insert(onchainAssets).values(values).returning();
  if (!row) throw new Error('onchain asset insert returned nothing');
  return row;
}

/**
 * The asset (`deploying`) and its deploy operation in one batch: an asset never waits for a
 * deployment nobody will send, and an operation never names an asset that was not written. The
 * batch is led by a guard that aborts it when the tenant already has `deployLimit` platform deploys
 * (counted in the same transaction, so simultaneous creates cannot pass the limit together).
 */
export async function insertAssetWithDeploy(db: Database, asset: OnchainAssetInsert, operation: OnchainOperationInsert, deployLimit: number): Promise<OnchainAsset> {
  const deploys = db.select({ value: count() }).from(onchainOperations).where(and(eq(onchainOperations.tenantId, asset.tenantId), eq(onchainOperations.kind, 'deploy')));
  const { inserted } = await namedBatch(db, {
    guard: db.insert(deployLimitGuard).select(db.select(selectedRow(deployLimitGuard, { tenantId: asset.tenantId })).from(ONE_ROW).where(sql`(${deploys}) >= ${deployLimit}`)),
    inserted: db.insert(onchainAssets).values(asset).returning(),
    operation: db.insert(onchainOperations).values(operation),
  });
  const [row] = inserted;
  if (!row) throw new Error('onchain asset insert returned nothing');
  return row;
}

/**
 * Applies the changes; with `fromStatus`, only while the asset still has that status (the move was
 * checked against it, and the settlement core may have changed it since). Undefined when no row matched.
 */
export async function updateOnchainAsset(db: Database, tenantId: string, id: string, changes: OnchainAssetChanges, fromStatus?: OnchainAssetStatus) {
  const where = and(ofTenant(tenantId, id), fromStatus === undefined ? undefined : eq(onchainAssets.status, fromStatus));
  const [row] = await db.update(onchainAssets).set(changes).where(where).returning();
  return row;
}

export type DeleteOutcome = 'deleted' | 'missing' | { rewardCount: number; unfinishedOperationCount: number; unsettledTransactionCount: number };

/**
 * Deletes an asset no reward names and no unfinished operation or unsettled XP transaction needs,
 * with its indexed balances.
 * The check is part of each DELETE (`WHERE NOT EXISTS`) inside one batch, so a reward or an
 * operation written concurrently either lands before (and blocks the delete) or after (and sees no asset).
 */
export async function deleteUnusedOnchainAsset(db: Database, tenantId: string, id: string): Promise<DeleteOutcome> {
  const rewardsOfAsset = and(eq(rewards.tenantId, tenantId), eq(rewards.onchainAssetId, id));
  const unfinishedOperations = and(
    eq(onchainOperations.tenantId, tenantId),
    eq(onchainOperations.onchainAssetId, id),
    inArray(onchainOperations.status, [...UNFINISHED_OPERATION_STATUSES]),
  );
  const unsettledTransactions = and(
    eq(internalTransactions.tenantId, tenantId),
    eq(internalTransactions.onchainAssetId, id),
    inArray(internalTransactions.status, ['initialized', 'pending']),
  );
  const unused = and(
    notExists(db.select({ one: sql`1` }).from(rewards).where(rewardsOfAsset)),
    notExists(db.select({ one: sql`1` }).from(onchainOperations).where(unfinishedOperations)),
    notExists(db.select({ one: sql`1` }).from(internalTransactions).where(unsettledTransactions)),
  );
  const { deleted, remaining, rewardCount, operationCount, transactionCount } = await namedBatch(db, {
    balances: db
      .delete(customerAssetBalances)
      .where(
        and(
          eq(customerAssetBalances.tenantId, tenantId),
          eq(customerAssetBalances.onchainAssetId, id),
          exists(db.select({ one: sql`1` }).from(onchainAssets).where(ofTenant(tenantId, id))),
          unused,
        ),
      ),
    deleted: db.delete(onchainAssets).where(and(ofTenant(tenantId, id), unused)).returning({ id: onchainAssets.id }),
    remaining: db.select({ id: onchainAssets.id }).from(onchainAssets).where(ofTenant(tenantId, id)).limit(1),
    rewardCount: db.select({ value: count() }).from(rewards).where(rewardsOfAsset),
    operationCount: db.select({ value: count() }).from(onchainOperations).where(unfinishedOperations),
    transactionCount: db.select({ value: count() }).from(internalTransactions).where(unsettledTransactions),
  });
  if (deleted.length > 0) return 'deleted';
  if (remaining.length === 0) return 'missing';
  return {
    rewardCount: rewardCount[0]?.value ?? 0,
    unfinishedOperationCount: operationCount[0]?.value ?? 0,
    unsettledTransactionCount: transactionCount[0]?.value ?? 0,
  };
}
