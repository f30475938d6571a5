import type { Reward, Tenant } from '../db/schema';
import { ExpiringMap } from '../lib/bounded-map';

/** What an off-chain redemption takes from its reward and tenant. */
export type RememberedReward = { reward: Reward; tenant: Pick<Tenant, 'id' | 'name' | 'slug'> };

/**
 * Off-chain rewards this isolate checked for a redemption, so the next redemption of the same
 * reward skips the round trip that reads it: the batch that spends re-checks everything it relies
 * on (data/redemption-writes.ts rememberedRewardGuard), and a reward or tenant changed since sends
 * the redemption down the full path. Nothing here is trusted without that check.
 */
const MAX_REMEMBERED = 10_000;
/** Long enough for a reward's burst of redemptions, short enough to keep memory fresh. */
const REMEMBER_MS = 10 * 60_000;

const remembered = new ExpiringMap<string, RememberedReward>(MAX_REMEMBERED, REMEMBER_MS);
const keyOf = (tenantId: string, rewardId: string) => `${tenantId} ${rewardId}`;

export function recallReward(tenantId: string, rewardId: string): RememberedReward | undefined {
  return remembered.get(keyOf(tenantId, rewardId));
}

export function rememberReward(entry: RememberedReward): void {
  remembered.set(keyOf(entry.tenant.id, entry.reward.id), entry);
}

export function forgetReward(tenantId: string, rewardId: string): void {
  remembered.delete(keyOf(tenantId, rewardId));
}
