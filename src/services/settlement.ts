import { getContractAddress, keccak256, type Address, type Hex } from 'viem';
import { ChainConfigError, ChainUnavailableError } from '../chain/chains';
import { OperationRejected, operationCall, type OperationCall } from '../chain/calls';
import type { OnchainContext } from '../chain/context';
import { RelayerConfigError } from '../chain/relayer';
import type { BlockchainTransaction, OnchainOperation } from '../db/schema';
import { reserveGas } from '../data/gas-budget';
import { broadcastStatements, failedStatements, releasedOperationsQuery, runBatch, succeededStatements } from '../data/settlement-outcomes';
import { claimDeployedContractEverywhere } from '../data/contract-claims';
import { allocateNonce, type NonceRequest } from '../data/relayer-nonces';
import { loadOperation, markAttempt, recordAttempt, recordOperationError, writeNonce, type LoadedOperation } from '../data/settlement';
import { MAX_OPERATION_ERRORS, retryDelaySeconds } from '../domain/settlement';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import type { ShardContext } from './context';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';
import { openingGate, openingMintAmount } from './xp-openings';

/** `done`: nothing more for this message; `retryAfterSeconds`: deliver it again later. */
export type SettleOutcome = { done: true } | { done: false; retryAfterSeconds: number };

const DONE: SettleOutcome = { done: true };
/** A dependency still deploying: look again soon. */
const ASSET_NOT_READY_SECONDS = 10;

/**
 * Hands operations to the settlement queue. A failed send is logged, never thrown: the write it
 * follows has committed, and the receipts job re-enqueues operations left `queued`.
 */
export async function enqueueOperations({ onchain, shard, requestId }: ShardContext, operationIds: readonly string[]): Promise<void> {
  try {
    await onchain.enqueue(shard.name, operationIds);
  } catch (error) {
    log('warn', 'settlement enqueue failed; the receipts job will re-enqueue', { request_id: requestId, shard: shard.name, operation_count: operationIds.length, reason: reasonOf(error) });
  }
}

/** A recorded attempt, as much of it as sending needs. */
export type StoredAttempt = Pick<BlockchainTransaction, 'id' | 'attempt' | 'rawTransaction'>;

/** Broadcasts stored bytes; "already known" or "nonce too low" mean the chain has them: the receipts job decides. */
export async function broadcast({ db, onchain, now }: ShardContext, operation: OnchainOperation, attempt: StoredAttempt): Promise<void> {
  try {
    await onchain.client(operation.chainId).sendRawTransaction({ serializedTransaction: attempt.rawTransaction as Hex });
  } catch (error) {
    const reason = reasonOf(error);
    if (!/already known|nonce too low|already imported|known transaction/i.test(reason)) throw error;
  }
  await markAttempt(db, attempt, 'submitted', isoNow(now()));
  if (attempt.attempt === 1) await runBatch(db, broadcastStatements(db, operation, isoNow(now())));
}

/**
 * The gas limit of the operation's transaction: the estimate + 20%, never above the kind's ceiling.
 * An estimate above the ceiling refuses the operation before it has a nonce; once it has one (a
 * redelivery after a crash), the nonce must be used, so the transaction goes out capped at the
 * ceiling. A call that reverts in the estimate is sent anyway with the fallback (capped too): it is
 * mined as a failed receipt, consuming its nonce.
 */
async function gasLimitFor(onchain: OnchainContext, loaded: LoadedOperation, call: OperationCall, relayer: Address): Promise<bigint> {
  const { operation } = loaded;
  const ceiling = onchain.maxGas[operation.kind];
  const estimate = await onchain.client(operation.chainId).estimateGas({ account: relayer, to: call.to, data: call.data }).catch((error: unknown) => {
    if (!/revert/i.test(reasonOf(error))) throw error;
    log('warn', 'settlement call reverts in estimate; sending with fallback gas', { operation_id: operation.id, tenant_id: operation.tenantId, chain_id: operation.chainId, reason: reasonOf(error) });
    return undefined;
  });
  if (estimate === undefined) return call.fallbackGas < ceiling ? call.fallbackGas : ceiling;
  if (estimate > ceiling && operation.nonce === null) {
    throw new OperationRejected(`a ${operation.kind} of this contract needs ${estimate} gas, more than the ${ceiling} allowed (MAX_GAS_${operation.kind.toUpperCase()})`);
  }
  const padded = (estimate * 12n) / 10n;
  return padded < ceiling ? padded : ceiling;
}

/** Takes the operation's gas from its tenant's daily budget, once; refuses it when it does not fit. */
async function reserveBudget({ db, onchain }: ShardContext, operation: OnchainOperation, gas: bigint): Promise<void> {
  if (operation.gasReservation !== null || operation.nonce !== null) return;
  if (!(await reserveGas(db, operation, gas, onchain.dailyGasBudget))) {
    throw new OperationRejected(`the tenant's onchain gas budget for today (${onchain.dailyGasBudget} gas, TENANT_DAILY_GAS_BUDGET) is used up`);
  }
}

/**
 * Signs the operation's first transaction, records it, then broadcasts it. Before anything is
 * signed: the contract must be the tenant's (onchain_contracts), the gas within the kind's ceiling
 * and the tenant's daily budget; then the nonce is taken, once.
 */
async function signAndSend(ctx: ShardContext, loaded: LoadedOperation): Promise<void> {
  const { db, onchain } = ctx;
  const { operation, asset } = loaded;
  if (operation.kind !== 'deploy' && loaded.contractOwner !== operation.tenantId) {
    throw new OperationRejected(`the contract of asset ${asset.id} is not held by this tenant (another tenant registered it first)`);
  }
  const client = onchain.client(operation.chainId);
  const relayer = onchain.relayer();
  const call = operationCall(operation, asset, relayer.address);
  const gas = await gasLimitFor(onchain, loaded, call, relayer.address);
  await reserveBudget(ctx, operation, gas);
  const [chainNextNonce, genesis] = await Promise.all([
    client.getTransactionCount({ address: relayer.address, blockTag: 'pending' }),
    client.getBlock({ blockNumber: 0n }),
  ]);
  const nonce = operation.nonce ?? (await takeNonce(ctx, operation, { chainId: operation.chainId, relayer: relayer.address, chainNextNonce, genesisHash: genesis.hash }));
  const fees = await client.estimateFeesPerGas();
  const tx = { type: 'eip1559', chainId: operation.chainId, nonce, to: call.to, data: call.data, gas, value: 0n, ...fees } as const;
  const raw = await relayer.signTransaction(tx);
  const id = newId('btx');
  const contractAddress = operation.kind === 'deploy' ? getContractAddress({ from: relayer.address, nonce: BigInt(nonce) }) : undefined;
  if (contractAddress) await claimDeployedContractEverywhere(ctx.directory, { chainId: operation.chainId, address: contractAddress, tenantId: operation.tenantId });
  const signed = { id, attempt: 1, hash: keccak256(raw), raw, from: relayer.address, to: call.to ?? null, data: call.data, nonce, gas, ...fees, contractAddress };
  if (await recordAttempt(db, operation, signed, isoNow(ctx.now()))) {
    await broadcast(ctx, operation, { id, attempt: 1, rawTransaction: raw });
    return;
  }
  // Another consumer recorded the first attempt before us: send theirs, never a second signature.
  const first = (await loadOperation(db, operation.id))?.attempts[0];
  if (!first) throw new Error(`operation ${operation.id} lost its recorded attempt`);
  await broadcast(ctx, operation, first);
}

/** A nonce from the directory (shared by every shard), then written to the operation's row. */
async function takeNonce({ db, directory, now }: ShardContext, operation: OnchainOperation, request: NonceRequest): Promise<number> {
  const nonce = await allocateNonce(directory, operation.id, request, isoNow(now()));
  return writeNonce(db, operation.id, nonce, request.relayer, isoNow(now()));
}

/** Everything but an operation the chain can never carry out (configuration and RPC can be fixed) is worth retrying. */
const isRetryable = (error: unknown) => !(error instanceof OperationRejected);

/** Records a failed try; after too many, the operation is given up (failed, XP given back). */
async function handleError({ db, now }: ShardContext, loaded: LoadedOperation, error: unknown): Promise<SettleOutcome> {
  const { operation } = loaded;
  const reason = error instanceof ChainUnavailableError || error instanceof ChainConfigError || error instanceof RelayerConfigError
    ? error.message
    : `chain ${operation.chainId}: ${reasonOf(error)}`;
  const errorCount = operation.errorCount + 1;
  const delay = retryDelaySeconds(errorCount);
  const at = now();
  await recordOperationError(db, operation.id, reason, { retryAt: isoNow(new Date(at.getTime() + delay * 1000)), now: isoNow(at) });
  log('error', 'settlement try failed', { operation_id: operation.id, tenant_id: operation.tenantId, chain_id: operation.chainId, errors: errorCount, reason });
  if (loaded.attempts.length === 0 && (errorCount >= MAX_OPERATION_ERRORS || !isRetryable(error))) {
    await runBatch(db, failedStatements(db, operation, undefined, `given up: ${reason}`, isoNow(at)));
    return DONE;
  }
  return { done: false, retryAfterSeconds: delay };
}

/**
 * Settles one operation, exactly once however often its message arrives: an operation that already
 * has a signed transaction is only re-broadcast (the same bytes), a final one is left alone, and a
 * new one takes its nonce in one atomic D1 step before it is signed, recorded, then sent. The
 * receipts job (services/settlement-receipts.ts) takes it from there.
 */
export async function settleOperation(ctx: ShardContext, operationId: string): Promise<SettleOutcome> {
  const { db } = ctx;
  const loaded = await loadOperation(db, operationId);
  if (!loaded) {
    log('warn', 'settlement message for an unknown operation', { operation_id: operationId });
    return DONE;
  }
  const { operation, asset, attempts } = loaded;
  if (operation.status !== 'queued' && operation.status !== 'submitted') return DONE;
  try {
    const latest = attempts.at(-1);
    if (latest) {
      await broadcast(ctx, operation, latest);
      return DONE;
    }
    if (operation.kind !== 'deploy' && asset.status === 'deploying') return { done: false, retryAfterSeconds: ASSET_NOT_READY_SECONDS };
    if (operation.kind !== 'deploy' && asset.status !== 'active') {
      await runBatch(db, failedStatements(db, operation, undefined, `asset ${asset.id} is ${asset.status}`, isoNow(ctx.now())));
      return DONE;
    }
    const gate = await openingGate(ctx, loaded);
    if (!gate.ready) {
      if (!gate.waiting) await runBatch(db, failedStatements(db, operation, undefined, gate.reason, isoNow(ctx.now())));
      return DONE;
    }
    if (operation.kind !== 'opening_mint') {
      await signAndSend(ctx, loaded);
      return DONE;
    }
    const amount = await openingMintAmount(ctx, loaded);
    if (amount === 0n) {
      // A registered token's wallet already held it all: nothing to send.
      await runBatch(db, succeededStatements(db, operation, undefined, isoNow(ctx.now())));
      await enqueueOperations(ctx, (await releasedOperationsQuery(db, operation.id)).map((row) => row.id));
      return DONE;
    }
    await signAndSend(ctx, { ...loaded, operation: { ...operation, amount: amount.toString() } });
    return DONE;
  } catch (error) {
    return handleError(ctx, loaded, error);
  }
}
