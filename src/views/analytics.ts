import type { Reward } from '../db/schema';
import { sharePercent } from '../domain/analytics';
import { findCountry } from '../domain/countries';
import type { TopCountriesView, TopRewardsView } from '../schemas/analytics';
import { toCountryView } from './country';
import { toRewardSummaryView } from './reward';

export function toTopRewardsView(tenantId: string, rows: { reward: Reward; redemptionCount: number }[], total: number): TopRewardsView {
  return {
    items: rows.map((row) => ({
      redemption_count: row.redemptionCount,
      reward: toRewardSummaryView(row.reward),
      share_of_tenant_redemptions_percent: sharePercent(row.redemptionCount, total),
    })),
    tenant_id: tenantId,
    total_redemptions: total,
  };
}

export function toTopCountriesView(tenantId: string, rows: { countryCode: string; fans: number }[], total: number): TopCountriesView {
  return {
    items: rows.map((row) => ({
      active_fans_count: row.fans,
      // Codes are validated on write; an unknown legacy code is still shown, named by its code.
      country: toCountryView(findCountry(row.countryCode) ?? { code: row.countryCode, name: row.countryCode }),
      share_of_tenant_customers_percent: sharePercent(row.fans, total),
    })),
    tenant_id: tenantId,
    total_active_tenant_customers: total,
  };
}
