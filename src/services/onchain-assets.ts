import { BaseError, HttpRequestError, TimeoutError, erc20Abi, getAddress, type Address } from 'viem';
import { configuredChainIds } from '../chain/chains';
import type { OnchainContext } from '../chain/context';
import { XP_ASSET_KEY } from '../db/schema';
import { violatesUnique } from '../data/db-errors';
import {
  deleteUnusedOnchainAsset,
  findCreateConflicts,
  findOnchainAsset,
  insertAssetWithDeploy,
  insertOnchainAsset,
  isContractHeldElsewhere,
  isDeployLimitReached,
  listOnchainAssets as listAssetRows,
  updateOnchainAsset as updateAssetRow,
  type OnchainAssetInsert,
} from '../data/onchain-assets';
import { assertAssetStatusMove, storedDecimals } from '../domain/onchain-assets';
import { ApiError, type FieldError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { OnchainAssetView } from '../schemas/internal-transaction';
import type { CreateOnchainAssetInput, OnchainAssetListQuery, UpdateOnchainAssetInput } from '../schemas/onchain-asset';
import { toOnchainAssetView } from '../views/internal-transaction';
import type { ServiceContext } from './context';
import { enqueueOperations } from './settlement';
import { claimRegisteredContract } from '../data/contract-claims';

export const onchainAssetNotFound = () => ApiError.notFound('Onchain asset');

const invalid = (path: string, message: string) => new ApiError('VALIDATION_FAILED', message, { path });

/** The chain's RPC could not answer: named by chain id only (its URL may carry a provider key). */
const unreachable = (chainId: number) => invalid('chain_id', `chain ${chainId} RPC is unreachable; try again later`);

/** True when viem failed to reach the node at all (as opposed to the node answering with an error or a revert). */
function isTransportFailure(error: unknown): boolean {
  return error instanceof BaseError && error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError) !== null;
}

export async function listOnchainAssets({ db, tenantId }: ServiceContext, query: OnchainAssetListQuery): Promise<Page<OnchainAssetView>> {
  const { rows, total } = await listAssetRows(db, tenantId, query);
  return pageOf(rows.map(toOnchainAssetView), total, query);
}

export async function getOnchainAsset({ db, tenantId }: ServiceContext, id: string): Promise<OnchainAssetView> {
  const asset = await findOnchainAsset(db, tenantId, id);
  if (!asset) throw onchainAssetNotFound();
  return toOnchainAssetView(asset);
}

/**
 * The chain must be one of CHAINS (a malformed CHAINS throws ChainConfigError, a 503: the
 * operator's fault, not the caller's).
 */
function assertChainConfigured(onchain: OnchainContext, chainId: number): void {
  const directory = onchain.chains();
  if (!directory.has(chainId)) {
    throw invalid('chain_id', `Chain ${chainId} is not configured; configured chains: ${configuredChainIds(directory)}`);
  }
}

/**
 * A contract to register must exist on the chain, and an erc20's own `decimals()` (when it has one)
 * must agree with the body: every mint is computed from the stored decimals.
 */
async function assertContractOnChain(onchain: OnchainContext, input: CreateOnchainAssetInput, address: Address): Promise<void> {
  const client = onchain.client(input.chain_id);
  const code = await client.getCode({ address }).catch(() => {
    throw unreachable(input.chain_id);
  });
  if (code === undefined || code === '0x') {
    throw invalid('asset_address', `There is no contract code at ${address} on chain ${input.chain_id}`);
  }
  if (input.type !== 'erc20') return;
  let onchainDecimals: number;
  try {
    onchainDecimals = await client.readContract({ address, abi: erc20Abi, functionName: 'decimals' });
  } catch (error) {
    if (isTransportFailure(error)) throw unreachable(input.chain_id);
    return; // decimals() is optional in ERC-20: without it, the body's value stands
  }
  if (onchainDecimals !== input.decimals) {
    throw invalid('decimals', `The contract's decimals() is ${onchainDecimals}, not ${input.decimals}`);
  }
}

type Conflicts = { keyTaken?: boolean; addressTaken?: boolean; heldElsewhere?: boolean };

/** Another tenant's contract is refused without saying whose it is. */
const HELD_ELSEWHERE = 'This contract belongs to another tenant of the platform: a contract can be registered by one tenant only';

function conflictErrors(found: Conflicts, input: CreateOnchainAssetInput): FieldError[] {
  return [
    ...(found.keyTaken ? [{ path: 'key', message: `An onchain asset with key "${input.key}" already exists in this tenant` }] : []),
    ...(found.addressTaken ? [{ path: 'asset_address', message: `This contract is already registered on chain ${input.chain_id} in this tenant` }] : []),
    ...(found.heldElsewhere && !found.addressTaken ? [{ path: 'asset_address', message: HELD_ELSEWHERE }] : []),
  ];
}

const conflict = (errors: FieldError[]) => new ApiError('CONFLICT', errors.map((error) => error.message).join('; '), { errors });

/**
 * What the database refused that the pre-check missed (two creates racing): the same 409s as the
 * pre-check, and the tenant's deploy limit.
 */
function rethrowRefusal(input: CreateOnchainAssetInput, deployLimit: number) {
  return (error: unknown): never => {
    if (violatesUnique(error, 'onchain_assets.key')) throw conflict(conflictErrors({ keyTaken: true }, input));
    if (violatesUnique(error, 'onchain_assets.asset_address')) throw conflict(conflictErrors({ addressTaken: true }, input));
    if (isContractHeldElsewhere(error)) throw conflict(conflictErrors({ heldElsewhere: true }, input));
    if (isDeployLimitReached(error)) {
      throw new ApiError('CONFLICT', `This tenant has made ${deployLimit} platform deploys, the most the platform allows per tenant: register an existing contract with asset_address, or ask the platform operator to raise the limit`);
    }
    throw error;
  };
}

/**
 * Registers an existing contract (`asset_address` given: `active` at once) or has the platform
 * deploy its reference contract (`deploying` until the settlement core sees the receipt).
 */
export async function createOnchainAsset(ctx: ServiceContext, input: CreateOnchainAssetInput): Promise<OnchainAssetView> {
  const { db, tenantId, onchain } = ctx;
  const deploying = input.asset_address === undefined;
  // Before anything is written: a deploy nobody can sign would sit in `deploying` forever.
  if (deploying) onchain.relayer();
  assertChainConfigured(onchain, input.chain_id);
  const address = input.asset_address === undefined ? undefined : getAddress(input.asset_address);

  const conflicts = conflictErrors(await findCreateConflicts(db, tenantId, { key: input.key, chainId: input.chain_id, assetAddress: address }), input);
  if (conflicts.length > 0) throw conflict(conflicts);

  const now = isoNow(ctx.now());
  const values: OnchainAssetInsert = {
    id: newId('ast'),
    tenantId,
    key: input.key ?? null,
    type: input.type,
    chainId: input.chain_id,
    assetAddress: address ?? null,
    decimals: storedDecimals(input),
    name: input.name,
    symbol: input.symbol,
    status: deploying ? 'deploying' : 'active',
    metadata: input.metadata ?? null,
    createdAt: now,
    updatedAt: now,
  };
  if (address !== undefined) {
    await assertContractOnChain(onchain, input, address);
    // Claimed in the directory first: a contract is one tenant's across every shard.
    const owner = await claimRegisteredContract(ctx.directory, { chainId: input.chain_id, address, tenantId });
    if (owner !== tenantId) throw conflict(conflictErrors({ heldElsewhere: true }, input));
    // A registered XP token's holders keep what their wallets hold now: it counts toward the XP its opening mints.
    if (input.key === XP_ASSET_KEY) values.openingBlock = Number(await onchain.client(input.chain_id).getBlockNumber({ cacheTime: 0 }));
    return toOnchainAssetView(await insertOnchainAsset(db, values).catch(rethrowRefusal(input, onchain.deployLimit)));
  }
  const operationId = newId('op');
  const asset = await insertAssetWithDeploy(db, values, {
    id: operationId,
    tenantId,
    kind: 'deploy',
    status: 'queued',
    chainId: input.chain_id,
    onchainAssetId: values.id,
    createdAt: now,
    updatedAt: now,
  }, onchain.deployLimit).catch(rethrowRefusal(input, onchain.deployLimit));
  // A failed send is logged, not thrown: the asset is written, and the receipts cron re-enqueues the operation.
  await enqueueOperations(ctx, [operationId]);
  return toOnchainAssetView(asset);
}

/** PATCH: only the fields sent change; a status move is checked against the status read and written only if it still holds. */
export async function updateOnchainAsset({ db, tenantId, now }: ServiceContext, id: string, input: UpdateOnchainAssetInput): Promise<OnchainAssetView> {
  const asset = await findOnchainAsset(db, tenantId, id);
  if (!asset) throw onchainAssetNotFound();
  if (input.status !== undefined) assertAssetStatusMove(asset.status, input.status);
  const fromStatus = input.status === undefined ? undefined : asset.status;
  const updated = await updateAssetRow(db, tenantId, id, { name: input.name, symbol: input.symbol, metadata: input.metadata, status: input.status, updatedAt: isoNow(now()) }, fromStatus);
  if (!updated) {
    if (fromStatus === undefined) throw onchainAssetNotFound();
    throw new ApiError('CONFLICT', 'The asset status was changed meanwhile (e.g. by its deployment); read it again and retry', { path: 'status' });
  }
  return toOnchainAssetView(updated);
}

/** Deletes an asset nothing depends on any more (no reward names it, nothing on it is still settling). */
export async function deleteOnchainAsset({ db, tenantId }: ServiceContext, id: string): Promise<void> {
  const outcome = await deleteUnusedOnchainAsset(db, tenantId, id);
  if (outcome === 'deleted') return;
  if (outcome === 'missing') throw onchainAssetNotFound();
  const reasons = [
    ...(outcome.rewardCount > 0 ? [`${outcome.rewardCount} reward(s) deliver it (change or delete them first)`] : []),
    ...(outcome.unfinishedOperationCount > 0 ? [`${outcome.unfinishedOperationCount} onchain operation(s) of it are not settled yet`] : []),
    ...(outcome.unsettledTransactionCount > 0 ? [`${outcome.unsettledTransactionCount} internal transaction(s) on it are not settled yet`] : []),
  ];
  throw new ApiError('CONFLICT', `The onchain asset is in use and cannot be deleted: ${reasons.join('; ') || 'it changed meanwhile, retry'}`);
}
