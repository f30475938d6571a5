import { z } from '@hono/zod-openapi';
import { pageQuery } from '../lib/paging';
import { dateTime, optionalText, plainText, REFUSED, tenantBriefSchema, trimmedText, xpString } from './common';

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

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, or empty: a color and nothing else wherever a viewer's CSS puts it. */
const TIER_COLOR_PATTERN = /^(?:#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8}))?$/;
/** An absolute https URL (no `http:`, `data:`, `javascript:`) without whitespace or a character one-line text refuses, or empty. */
const TIER_ICON_PATTERN = new RegExp(`^(?:https://[^\\s${REFUSED.one}]+)?$`);
const ICON_RULE = 'Must be an absolute https URL such as https://cdn.example.com/gold.svg, or empty';

const tierFields = {
  tier_name: trimmedText(100).openapi({ example: 'Gold' }),
  min_xp_threshold: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).openapi({ example: 1000 }),
  benefits_description: optionalText(2000, 'many').openapi({ example: 'Free shipping on every order' }),
  color: z
    .string()
    .regex(TIER_COLOR_PATTERN, 'Must be a hex color such as #FFD700 (#rgb, #rgba, #rrggbb or #rrggbbaa), or empty')
    .openapi({ description: 'A CSS hex color (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`) or ""', example: '#FFD700' }),
  icon: z
    .string()
    .max(2048)
    .refine((value) => value === '' || (TIER_ICON_PATTERN.test(value) && URL.canParse(value)), ICON_RULE)
    .openapi({
      pattern: TIER_ICON_PATTERN.source,
      description: 'An absolute https URL that parses as a URL (WHATWG), or ""; viewers\' browsers load it',
      example: 'https://cdn.example.com/tiers/gold.svg',
    }),
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
