import type { Bindings } from '../env';
import { parseChains, publicClientFor, ChainUnavailableError, type ChainDirectory } from './chains';
import { relayerAccount } from './relayer';
import { settlementSettings, type SettlementSettings } from './settings';

/**
 * What onchain services need from the environment, built once per request, queue batch or cron
 * run. Parsing is lazy: a tenant without onchain assets is never affected by chain configuration.
 */
export type OnchainContext = SettlementSettings & {
  chains(): ChainDirectory;
  /** The public client of a configured chain; `ChainUnavailableError` for an unconfigured one. */
  client(chainId: number): ReturnType<typeof publicClientFor>;
  relayer(): ReturnType<typeof relayerAccount>;
  /** Hands operations of one shard to the settlement queue (ids and the shard's name only). */
  enqueue(shard: string, operationIds: readonly string[]): Promise<void>;
};

export function onchainContext(env: Bindings): OnchainContext {
  const chains = () => parseChains(env.CHAINS);
  return {
    chains,
    client(chainId) {
      const url = chains().get(chainId);
      if (!url) throw new ChainUnavailableError(chainId, 'not configured in CHAINS');
      return publicClientFor(chainId, url);
    },
    relayer: () => relayerAccount(env.RELAYER_PRIVATE_KEY),
    ...settlementSettings(env),
    async enqueue(shard, operationIds) {
      if (operationIds.length === 0) return;
      await env.SETTLEMENT_QUEUE.sendBatch(operationIds.map((operationId) => ({ body: { operationId, shard } })))
    },
  };
}
