import type { Tenant, TierRule } from '../db/schema';
import type { TierRuleView } from '../schemas/tier';
import { toTenantBrief } from './briefs';

export function toTierRuleView(tier: TierRule, tenant: Pick<Tenant, 'id' | 'name' | 'slug'>): TierRuleView {
  return {
    id: tier.id,
    tenant_id: tier.tenantId,
    tier_name: tier.tierName,
    min_xp_threshold: String(tier.minXpThreshold),
    benefits_description: tier.benefitsDescription,
    color: tier.color,
    icon: tier.icon,
    tenant: toTenantBrief(tenant),
    created_at: tier.createdAt,
    updated_at: tier.updatedAt,
  };
}
