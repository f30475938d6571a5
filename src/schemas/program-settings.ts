import { z } from '@hono/zod-openapi';
import { expiryRoundings, tierBases, tierDowngrades, tierReviews } from '../db/schema';
import { isIsoDurationInRange, isTimeZone } from '../domain/program-settings';
import { dateTime } from './common';

const duration = z
  .string()
  .refine(isIsoDurationInRange, 'Must be an ISO 8601 duration from PT10S to P10Y, e.g. "P30D" or "PT1H"')
  .nullable()
  .openapi({ description: 'An ISO 8601 duration from PT10S to P10Y (a year counted as 365 days, a month as 30), or null for none', example: 'P30D' });

const pointsInput = z
  .strictObject({
    pending_period: duration.default(null),
    validity: duration.default(null),
    expiry_rounding: z.enum(expiryRoundings).default('none'),
    expiry_notice: duration.default(null),
  })
  .openapi('PointsSettingsInput');

const tiersInput = z
  .strictObject({
    basis: z.enum(tierBases).default('lifetime'),
    period: duration.default(null),
    downgrade: z.enum(tierDowngrades).default('none'),
    review: z.enum(tierReviews).default('yearly'),
  })
  .openapi('TierSettingsInput');

/** PUT takes the whole document: a section or field left out is reset to its default. */
export const programSettingsBodySchema = z
  .strictObject({
    timezone: z
      .string()
      .refine(isTimeZone, 'Must be an IANA time zone, e.g. "Europe/Paris"')
      .default('UTC')
      .openapi({ description: 'An IANA time zone name (e.g. "Europe/Paris"; an offset such as "+02:00" is not a zone). The periods of rule limits are its days, weeks, months and years.', example: 'Europe/Paris' }),
    points: pointsInput.default({ pending_period: null, validity: null, expiry_rounding: 'none', expiry_notice: null }),
    tiers: tiersInput.default({ basis: 'lifetime', period: null, downgrade: 'none', review: 'yearly' }),
  })
  .openapi('ProgramSettingsBody');

export type ProgramSettingsInput = z.infer<typeof programSettingsBodySchema>;

export const programSettingsSchema = z
  .strictObject({
    timezone: z.string(),
    points: z.strictObject({
      pending_period: z.string().nullable(),
      validity: z.string().nullable(),
      expiry_rounding: z.enum(expiryRoundings),
      expiry_notice: z.string().nullable(),
    }),
    tiers: z.strictObject({
      basis: z.enum(tierBases),
      period: z.string().nullable(),
      downgrade: z.enum(tierDowngrades),
      review: z.enum(tierReviews),
    }),
    updated_at: dateTime.nullable().openapi({ description: 'null until the settings are first saved' }),
  })
  .openapi('ProgramSettings');

export type ProgramSettingsView = z.infer<typeof programSettingsSchema>;
