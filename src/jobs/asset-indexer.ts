import type { Bindings } from '../env';
import { indexAssetTransfers, type IndexerOptions, type IndexerSummary } from '../services/asset-indexer';
import { runContext } from '../services/context';

/**
 * Cron entry point of the Transfer indexer (every minute): balances of the platform's wallets and
 * asset counters as of the last confirmed block. Chain failures are logged per chain and counted in
 * the summary, never thrown, so one unreachable RPC does not mark every run failed.
 */
export function indexOnchainAssets(env: Bindings, options?: IndexerOptions): Promise<IndexerSummary> {
  return indexAssetTransfers(runContext(env), options);
}
