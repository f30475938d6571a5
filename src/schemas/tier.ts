import { z } from '@hono/zod-openapi';
import { pageQuery } from '../lib/paging';
import { dateTime, plainText, tenantBriefSchema, trimmedPlainText, xpString } from './common';

/** The spec's tier rule. */
export const tierRuleSchema = z
  .strictObject({
    id: z.string(),
    tenant_id: z.string(),
    tier_name: z.string(),
    min_xp_threshold: xpString,
    benefits_description: z.string(),
    color: z.string(),
    icon: z.string(),
    tenant: tenantBriefSchema,
    created_at: dateTime,
    updated_at: dateTime,
  })
  .openapi('TierRule');

export type TierRuleView = z.infer<typeof tierRuleSchema>;

const tierFields = {
  tier_name: trimmedPlainText(100).openapi({ example: 'Gold' }),
  min_xp_threshold: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).openapi({ example: 1000 }),
  benefits_description: z.string().max(2000).openapi({ example: 'Free shipping on every order' }),
  color: z.string().max(64).openapi({ example: '#FFD700' }),
  icon: z.string().max(2048).openapi({ example: 'https://cdn.example.com/tiers/gold.svg' }),
};

/** PUT replaces the whole rule, so every field is required (an omitted one would be silently blanked). */
export const replaceTierBodySchema = z.strictObject(tierFields).openapi('ReplaceTierBody');

/** Creation needs a name and a threshold; the presentation fields default to "". */
export const createTierBodySchema = z
  .strictObject({
    ...tierFields,
    benefits_description: tierFields.benefits_description.default(''),
    color: tierFields.color.default(''),
    icon: tierFields.icon.default(''),
  })
  .openapi('CreateTierBody');

export type TierInput = z.infer<typeof replaceTierBodySchema>;

export const tierListQuery = pageQuery.extend({
  tier_name: plainText(100).optional().openapi({ description: 'Exact tier name' }),
});

export type TierListQuery = z.infer<typeof tierListQuery>;

export const eligibilitySchema = z.strictObject({ eligible: z.boolean() }).openapi('Eligibility');
