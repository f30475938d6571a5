import { rankCountries, rankRewards } from '../data/analytics';
import { periodBounds } from '../domain/analytics';
import type { AnalyticsQuery, TopCountriesView, TopRewardsView } from '../schemas/analytics';
import { toTopCountriesView, toTopRewardsView } from '../views/analytics';
import type { ServiceContext } from './context';

/** Top rewards by redemptions that stand (CONTRACT.md, Analytics), optionally within a period. */
export async function topRewards({ db, tenantId }: ServiceContext, query: AnalyticsQuery): Promise<TopRewardsView> {
  const { rows, total } = await rankRewards(db, tenantId, { limit: query.limit, ...periodBounds(query.from, query.to) });
  return toTopRewardsView(tenantId, rows, total);
}

/** Top countries by active fans (CONTRACT.md, Analytics), optionally by customer creation period. */
export async function topCountries({ db, tenantId }: ServiceContext, query: AnalyticsQuery): Promise<TopCountriesView> {
  const { rows, total } = await rankCountries(db, tenantId, { limit: query.limit, ...periodBounds(query.from, query.to) });
  return toTopCountriesView(tenantId, rows, total);
}
