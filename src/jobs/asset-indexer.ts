import type { Bindings } from '../env';
import { indexAssetTransfers, type IndexerOptions, type IndexerSummary } from '../services/asset-indexer';
import { eachShard, runContext } from '../services/context';

/**
 * Cron entry point of the Transfer indexer (every minute, each shard's assets at once): balances of the platform's wallets and
 * asset counters as of the last confirmed block. Chain failures are logged per chain and counted in
 * the summary, never thrown, so one unreachable RPC does not mark every run failed.
 */
export async function indexOnchainAssets(env: Bindings, options?: IndexerOptions): Promise<IndexerSummary> {
  const perShard = await eachShard(runContext(env), (ctx) => indexAssetTransfers(ctx, options));
  return perShard.reduce((sum, one) => ({ assets: sum.assets + one.assets, chunks: sum.chunks + one.chunks, logs: sum.logs + one.logs, errors: sum.errors + one.errors }));
}
