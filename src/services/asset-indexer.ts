import { getAddress, isAddress, type Address, type Hash, type PublicClient } from 'viem';
import { fetchTransferLogs, genesisHash, minedBlockOf } from '../chain/logs';
import type { OnchainAsset } from '../db/schema';
import { indexableAssets, resetIndex } from '../data/asset-balances';
import { confirmedHead, planChunk } from '../domain/transfers';
import { isoNow } from '../lib/time';
import { commitChunk, type AssetCursor } from './asset-indexer-chunk';
import type { ShardContext } from './context';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/**
 * The Transfer indexer (cron): follows Transfer / TransferSingle / TransferBatch logs of every
 * deployed or registered asset and keeps `customer_asset_balances` of the platform's wallets, plus
 * `total_txns` (transfer log entries seen, any holder) and `total_owners` (platform wallets of the
 * asset's tenant holding a non-zero amount) on the asset.
 */

export type IndexerOptions = {
  /** Blocks per `eth_getLogs` request (public RPCs commonly cap ranges around 2,000). */
  chunkSize?: number;
  /** Chunks per chain per run, so one run stays bounded; the rest is picked up by the next run. */
  maxChunksPerRun?: number;
};

export type IndexerSummary = {
  /** Assets followed (active or inactive, with an address). */
  assets: number;
  /** Block ranges committed. */
  chunks: number;
  /** Transfer log entries indexed (per asset: a contract registered by two tenants counts twice). */
  logs: number;
  /** Chains whose indexing failed this run (each logged). */
  errors: number;
};

export const DEFAULT_CHUNK_SIZE = 2_000;
export const DEFAULT_MAX_CHUNKS_PER_RUN = 50;

/**
 * Where indexing of an asset starts when it has no cursor: the block of its deploy transaction when
 * the platform deployed it (nothing can precede it), else block 0 (a registered contract's
 * history is scanned in full; its creation block is not known to the platform).
 */
async function firstBlockOf(client: PublicClient, asset: OnchainAsset): Promise<number> {
  if (!asset.deployTxHash) return 0;
  return (await minedBlockOf(client, asset.deployTxHash as Hash)) ?? 0;
}

/** The asset's cursor for this run; an index built on another chain history is reset first. */
async function openCursor({ db, now }: ShardContext, client: PublicClient, asset: OnchainAsset, address: string, genesis: Hash): Promise<AssetCursor> {
  const stored = { assetId: asset.id, lastIndexedBlock: asset.lastIndexedBlock, genesisHash: asset.indexedGenesisHash };
  const indexedElsewhere = stored.genesisHash !== genesis && (stored.genesisHash !== null || stored.lastIndexedBlock !== null);
  if (!indexedElsewhere) {
    const nextBlock = stored.lastIndexedBlock === null ? await firstBlockOf(client, asset) : stored.lastIndexedBlock + 1;
    return { asset, address, nextBlock, guard: stored, totalTxns: asset.totalTxns ?? 0, supply: BigInt(asset.indexedSupply ?? '0'), lost: false };
  }
  if (!(await resetIndex(db, stored, asset.tenantId, genesis, isoNow(now())))) {
    return { asset, address, nextBlock: 0, guard: stored, totalTxns: 0, supply: 0n, lost: true }; // another run reset it first
  }
  log('warn', 'chain history changed (genesis hash); index reset', { job: 'asset-indexer', chain_id: asset.chainId, asset_id: asset.id, tenant_id: asset.tenantId });
  const guard = { assetId: asset.id, lastIndexedBlock: null, genesisHash: genesis };
  return { asset, address, nextBlock: await firstBlockOf(client, asset), guard, totalTxns: 0, supply: 0n, lost: false };
}

/** Indexes one chain's assets up to its confirmed head, at most `maxChunks` ranges. */
async function indexChain(ctx: ShardContext, chainId: number, assets: readonly OnchainAsset[], limits: Required<IndexerOptions>, summary: IndexerSummary): Promise<void> {
  const client = ctx.onchain.client(chainId);
  const genesis = await genesisHash(client); // first: an unreachable RPC fails here, before any other call
  // cacheTime 0: viem would otherwise answer from its block number cache (seconds) and miss new blocks.
  const latest = await client.getBlockNumber({ cacheTime: 0 });
  const safeHead = confirmedHead(Number(latest), ctx.onchain.confirmations);
  const cursors: AssetCursor[] = [];
  for (const asset of assets) {
    // Validated at registration; a bad row must not block the chain's other assets forever.
    if (!asset.assetAddress || !isAddress(asset.assetAddress, { strict: false })) {
      log('warn', 'asset_address is not an address; skipped', { job: 'asset-indexer', chain_id: chainId, asset_id: asset.id, tenant_id: asset.tenantId });
      continue;
    }
    cursors.push(await openCursor(ctx, client, asset, getAddress(asset.assetAddress), genesis));
  }

  for (let round = 0; round < limits.maxChunksPerRun; round += 1) {
    const live = cursors.filter((cursor) => !cursor.lost);
    const chunk = planChunk(
      live.map((cursor) => cursor.nextBlock),
      safeHead,
      limits.chunkSize,
    );
    if (!chunk) return;
    // One request for every contract of the chain that needs (part of) this range.
    const due = live.filter((cursor) => cursor.nextBlock <= chunk.to);
    const addresses = [...new Set(due.map((cursor) => cursor.address))] as Address[];
    const logs = await fetchTransferLogs(client, { addresses, fromBlock: chunk.from, toBlock: chunk.to });
    summary.logs += await commitChunk(ctx.db, due, logs, { toBlock: chunk.to, genesisHash: genesis, now: isoNow(ctx.now()) });
    summary.chunks += 1;
  }
}

/**
 * One indexer run over every chain that has assets. A failing chain (RPC down, not configured) is
 * logged by chain id (never its URL) and counted; the other chains go on.
 */
export async function indexAssetTransfers(ctx: ShardContext, options: IndexerOptions = {}): Promise<IndexerSummary> {
  const limits: Required<IndexerOptions> = {
    chunkSize: options.chunkSize ?? DEFAULT_CHUNK_SIZE,
    maxChunksPerRun: options.maxChunksPerRun ?? DEFAULT_MAX_CHUNKS_PER_RUN,
  };
  const assets = await indexableAssets(ctx.db);
  const byChain = new Map<number, OnchainAsset[]>();
  for (const asset of assets) {
    const list = byChain.get(asset.chainId) ?? [];
    list.push(asset);
    byChain.set(asset.chainId, list);
  }

  const summary: IndexerSummary = { assets: assets.length, chunks: 0, logs: 0, errors: 0 };
  await Promise.all(
    [...byChain].map(async ([chainId, chainAssets]) => {
      try {
        await indexChain(ctx, chainId, chainAssets, limits, summary);
      } catch (error) {
        summary.errors += 1;
        log('error', 'indexing a chain failed; next run retries', { job: 'asset-indexer', chain_id: chainId, reason: reasonOf(error) });
      }
    }),
  );
  return summary;
}
