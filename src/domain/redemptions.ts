import type { Customer, CustomerStatus, Reward, TierRule } from '../db/schema';
import { ApiError } from '../lib/errors';
import { EARNING_STATUSES } from './ledger';
import { isEligibleForTier } from './tiers';

/** A customer who may earn may also spend (CONTRACT: a suspended one can do neither). */
export function canRedeem(status: CustomerStatus): boolean {
  return (EARNING_STATUSES as readonly CustomerStatus[]).includes(status);
}

export type RedemptionCandidate = {
  /** `tierStandingXp`: lifetime XP, or a held tier's threshold (data/customer-tiers.ts). */
  customer: Pick<Customer, 'status' | 'xpBalance' | 'lifetimeXp' | 'tierHeld'> & { tierStandingXp: number };
  reward: Pick<Reward, 'status' | 'stock' | 'xpCost' | 'minTierId'>;
  /** The reward's minimum tier; undefined when it has none or the tier no longer exists. */
  minTier?: Pick<TierRule, 'tierName' | 'minXpThreshold'>;
};

/**
 * The checks before a redemption, in the contract's order (customer, reward, stock, tier, balance):
 * the first one that fails is the answer, so e.g. a suspended customer with no XP hears about the
 * suspension, which is what they would have to fix first.
 */
export function assertCanRedeem({ customer, reward, minTier }: RedemptionCandidate): void {
  if (!canRedeem(customer.status)) {
    throw new ApiError('CUSTOMER_NOT_ACTIVE', `The customer is ${customer.status}; only active or reinstated customers can redeem`, { path: 'user_id' });
  }
  if (reward.status !== 'active') {
    throw new ApiError('REWARD_NOT_ACTIVE', `The reward is ${reward.status}; only active rewards can be redeemed`, { path: 'reward_id' });
  }
  if (reward.stock !== null && reward.stock < 1) {
    throw new ApiError('OUT_OF_STOCK', 'The reward is out of stock', { path: 'reward_id' });
  }
  if (reward.minTierId !== null) {
    // A reward whose tier was deleted stays restricted (fail closed) until it is edited.
    if (!minTier) throw new ApiError('NOT_ELIGIBLE', 'The reward requires a tier that no longer exists', { path: 'user_id' });
    if (!isEligibleForTier(customer.tierStandingXp, minTier.minXpThreshold)) {
      const short = customer.tierHeld
        ? `${minTier.minXpThreshold} XP); the tier the customer holds until its review is below it`
        : `${minTier.minXpThreshold} lifetime XP); the customer has ${customer.lifetimeXp}`;
      throw new ApiError('NOT_ELIGIBLE', `The reward requires tier ${minTier.tierName} (${short}`, { path: 'user_id' });
    }
  }
  if (customer.xpBalance < reward.xpCost) {
    throw new ApiError('INSUFFICIENT_XP', `The reward costs ${reward.xpCost} XP; the customer's balance is ${customer.xpBalance}`, { path: 'user_id' });
  }
}
