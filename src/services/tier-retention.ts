import { programSettingsOf } from '../data/program-settings';
import { calendarsRunningOutQuery, reviewBatch, tierBasisStatements, tierPeriodPartsStatement } from '../data/tier-retention';
import { addDuration } from '../domain/point-terms';
import { CALENDAR_TOP_UP_WITHIN, reviewCalendar, tierPeriodParts } from '../domain/tier-reviews';
import { isoNow } from '../lib/time';
import type { ShardContext } from './context';

/**
 * The review job's parts (docs/POINTS.md, "Tiers on XP earned in a period"), run by the minute
 * cron with the point lifecycle's jobs (services/point-jobs.ts).
 */

/**
 * Tenants on earned_in_period whose review dates run out within CALENDAR_TOP_UP_WITHIN get the
 * next ones (and a tenant saved before tier retention existed gets its customers held): one
 * batch per tenant, rarely more than none a run.
 */
export async function topUpReviewCalendars(ctx: ShardContext): Promise<number> {
  const now = ctx.now();
  const tenants = await calendarsRunningOutQuery(ctx.db, isoNow(addDuration(now, CALENDAR_TOP_UP_WITHIN, 'UTC')));
  for (const row of tenants) {
    const { tenantId } = row;
    const { settings } = programSettingsOf([row]);
    await ctx.db.batch([
      tierPeriodPartsStatement(ctx.db, tenantId, tierPeriodParts(settings.tiersPeriod)),
      ...tierBasisStatements(ctx.db, tenantId, isoNow(now), reviewCalendar(now, settings)),
    ]);
  }
  return tenants.length;
}

/** One chunk of the reviews due now, at most `size` customers; how many were reviewed. */
export async function reviewTiers(ctx: ShardContext, size: number): Promise<number> {
  const results = await ctx.db.batch(reviewBatch(ctx.db, isoNow(ctx.now()), size));
  return results[2].length;
}
