import type { Customer, TierRule } from '../db/schema';
import type { CustomerView } from '../schemas/customer';

/** The tier shown on a customer record, as placed by data/customer-tiers.ts. */
export type CustomerTier = Pick<TierRule, 'id' | 'tierName'>;

export function toCustomerView(customer: Customer, tier: CustomerTier | undefined): CustomerView {
  return {
    id: customer.id,
    external_id: customer.externalId,
    username: customer.username,
    email: customer.email,
    country_code: customer.countryCode,
    status: customer.status,
    xp_balance: String(customer.xpBalance),
    lifetime_xp: String(customer.lifetimeXp),
    tier: tier ? { id: tier.id, tier_name: tier.tierName } : null,
    tier_valid_until: tier && customer.tierHeld ? customer.tierValidUntil : null,
    created_at: customer.createdAt,
    updated_at: customer.updatedAt,
  };
}
