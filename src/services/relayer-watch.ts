import { ChainConfigError } from '../chain/chains';
import { RelayerConfigError } from '../chain/relayer';
import { liftRaisedBudgets, recordRelayerBalance } from '../data/gas-budget';
import { eachShard, type RunContext } from './context';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/** A low relayer balance is logged at most this often per chain. */
export const LOW_BALANCE_LOG_EVERY_MS = 3600 * 1000;

export type RelayerWatchSummary = { chains: number; low: number; logged: number; errors: number };

/**
 * The minute cron's look at what keeps settlement running: the relayer's native balance on every
 * configured chain (below RELAYER_MIN_BALANCE it is logged as an error, once an hour per chain,
 * before it runs dry and every settlement stalls), and tenants whose daily gas budget ran out under
 * a smaller TENANT_DAILY_GAS_BUDGET than the one now configured get it back. Without a relayer
 * key or chains there is nothing to watch.
 */
export async function watchRelayer(ctx: RunContext): Promise<RelayerWatchSummary> {
  const { directory, onchain } = ctx;
  const now = ctx.now();
  const summary: RelayerWatchSummary = { chains: 0, low: 0, logged: 0, errors: 0 };
  await eachShard(ctx, ({ db }) => liftRaisedBudgets(db, onchain.dailyGasBudget));
  let address: `0x${string}`;
  let chainIds: number[];
  try {
    address = onchain.relayer().address;
    chainIds = [...onchain.chains().keys()];
  } catch (error) {
    if (error instanceof RelayerConfigError || error instanceof ChainConfigError) return summary;
    throw error;
  }
  await Promise.all(
    chainIds.map(async (chainId) => {
      summary.chains += 1;
      try {
        const balance = await onchain.client(chainId).getBalance({ address });
        const logNow = await recordRelayerBalance(directory, { chainId, address, balance, minimum: onchain.relayerMinBalance, now, quietMs: LOW_BALANCE_LOG_EVERY_MS });
        if (balance < onchain.relayerMinBalance) summary.low += 1;
        if (!logNow) return;
        summary.logged += 1;
        log('error', 'relayer balance is low: fund it before settlements stall', {
          job: 'relayer-watch',
          chain_id: chainId,
          relayer: address,
          balance_wei: String(balance),
          minimum_wei: String(onchain.relayerMinBalance),
        });
      } catch (error) {
        summary.errors += 1;
        log('warn', 'relayer balance could not be read', { job: 'relayer-watch', chain_id: chainId, reason: reasonOf(error) });
      }
    }),
  );
  return summary;
}
