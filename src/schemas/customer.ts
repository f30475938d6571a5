import { z } from '@hono/zod-openapi';
import { customerStatuses } from '../db/schema';
import { countries } from '../domain/countries';
import { pageQuery } from '../lib/paging';
import { dateTime, emailAddress, nullableRef, plainText, trimmedText, xpString } from './common';

/**
 * The tier a customer is in: the highest `min_xp_threshold` not above `lifetime_xp`, or under tiers
 * on `earned_in_period` the tier it holds until `tier_valid_until`.
 */
export const customerTierSchema = z.strictObject({ id: z.string(), tier_name: z.string() }).openapi('CustomerTier');

/** The customer record (CONTRACT.md, Customers). */
export const customerSchema = z
  .strictObject({
    id: z.string(),
    external_id: z.string().openapi({ description: "The customer's id in the tenant's own system" }),
    username: z.string().nullable(),
    email: z.string().nullable(),
    country_code: z.string().nullable().openapi({ example: 'DE' }),
    status: z.enum(customerStatuses),
    xp_balance: xpString,
    lifetime_xp: xpString,
    tier: nullableRef(customerTierSchema),
    tier_valid_until: dateTime.nullable().openapi({
      description:
        'Tiers on `earned_in_period`: the review at which the tier may drop (it is kept until then). Null on lifetime XP, without a tier, and for a tier at 0 XP',
    }),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .openapi('Customer');

export type CustomerView = z.infer<typeof customerSchema>;


/** Filters of both customer lists (gateway and portal). */
export const customerListQuery = pageQuery.extend({
  external_id: plainText(255).optional().openapi({ description: 'Exact' }),
  email: emailAddress.optional().openapi({ description: 'Exact, case-insensitive' }),
  status: z.enum(customerStatuses).optional(),
});

export type CustomerListQuery = z.infer<typeof customerListQuery>;

/** An enum, so the document lists exactly the codes that pass. */
const countryCode = z
  .enum(countries.map((country) => country.code).sort(), { error: 'Use an uppercase ISO 3166-1 alpha-2 country code (e.g. DE)' })
  .openapi({ example: 'DE' });

/**
 * Create or update by `external_id`. On update only the fields sent change; `null` clears one.
 * Emails are stored lowercase so the `email` filter matches whatever case a client sends.
 */
export const upsertCustomerBodySchema = z
  .strictObject({
    external_id: trimmedText(255).openapi({ example: 'user-42' }),
    email: emailAddress.toLowerCase().nullable().optional(),
    username: trimmedText(100).nullable().optional().openapi({ example: 'jane' }),
    country_code: countryCode.nullable().optional(),
  })
  .openapi('UpsertCustomerBody');

export type UpsertCustomerInput = z.infer<typeof upsertCustomerBodySchema>;

export const customerStatusBodySchema = z
  .strictObject({ status: z.enum(customerStatuses) })
  .openapi('CustomerStatusBody', {
    description: 'Allowed moves: pending->active, active->suspended, suspended->reinstated, reinstated->suspended',
  });
