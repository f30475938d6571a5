import { z } from '@hono/zod-openapi';
import { queryInteger } from '../lib/paging';
import { countrySchema } from './country';
import { rewardSummarySchema } from './reward';

const periodBound = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .openapi({ example: '2026-01-31', description: 'ISO date (the whole UTC day) or date-time; inclusive' });

/** Query of both rankings: how many entries, and optionally the period of the counted events. */
export const analyticsQuery = z.object({
  limit: queryInteger(1, 100).default(10).openapi({ example: 10 }),
  from: periodBound.optional(),
  to: periodBound.optional(),
});

export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

export const topRewardsSchema = z
  .strictObject({
    items: z.array(
      z.strictObject({
        redemption_count: z.number().int(),
        reward: rewardSummarySchema,
        share_of_tenant_redemptions_percent: z.number().openapi({ example: 33.33 }),
      }),
    ),
    tenant_id: z.string(),
    total_redemptions: z.number().int(),
  })
  .openapi('TopRewards');

export const topCountriesSchema = z
  .strictObject({
    items: z.array(
      z.strictObject({
        active_fans_count: z.number().int(),
        country: countrySchema,
        share_of_tenant_customers_percent: z.number().openapi({ example: 12.5 }),
      }),
    ),
    tenant_id: z.string(),
    total_active_tenant_customers: z.number().int(),
  })
  .openapi('TopCountries');

export type TopRewardsView = z.infer<typeof topRewardsSchema>;
export type TopCountriesView = z.infer<typeof topCountriesSchema>;
