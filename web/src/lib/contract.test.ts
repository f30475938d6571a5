/**
 * The CMS repeats the API's form limits so it can check before sending (permissions and cohort
 * ops it imports from the Worker's pure domain modules). These tests hold the copies to their
 * sources: the OpenAPI document the SDK is
 * generated from, and the Worker's schema for what the document does not state as a number.
 */
import { describe, expect, it } from 'vitest';
import document from '../../../sdk/openapi.json';
import { EMAIL_PATTERN } from '../../../src/domain/email';
import { MAX_PREDICATES } from '../../../src/schemas/cohort';
import { customerStatuses } from '../api/types';
import { limits } from './rules';

type Property = { enum?: string[]; maxLength?: number; minLength?: number; pattern?: string; format?: string; minimum?: number; maximum?: number; maxItems?: number };
const schemas = document.components.schemas as unknown as Record<string, { properties: Record<string, Property> }>;
const property = (schema: string, name: string): Property => {
  const found = schemas[schema]?.properties[name];
  if (!found) throw new Error(`${schema}.${name} is not in the OpenAPI document`);
  return found;
};

describe('the CMS\'s copies of the API\'s rules', () => {
  it('form limits are the OpenAPI document\'s', () => {
    expect(property('CreateTenantBody', 'name').maxLength).toBe(limits.tenantName);
    expect(property('CreateTenantBody', 'slug')).toMatchObject({ minLength: limits.slug.min, maxLength: limits.slug.max, pattern: limits.slug.pattern.source });
    expect(property('CreateTierBody', 'tier_name').maxLength).toBe(limits.tierName);
    expect(property('CreateTierBody', 'benefits_description').maxLength).toBe(limits.benefits);
    expect(property('CreateTierBody', 'color').pattern).toBe(limits.color.source);
    expect(property('CreateTierBody', 'icon')).toMatchObject({ maxLength: limits.icon.max, pattern: limits.icon.pattern.source });
    expect(property('CreateRewardBody', 'title').maxLength).toBe(limits.rewardTitle);
    expect(property('CreateRewardBody', 'description').maxLength).toBe(limits.description);
    expect(property('CreateRewardBody', 'xp_cost').pattern).toBe(limits.xpCost.source);
    expect(property('CreateRewardBody', 'stock').maximum).toBe(limits.stockMax);
    expect(property('XpAdjustmentBody', 'amount').pattern).toBe(limits.xpAdjustment.source);
    expect(property('XpAdjustmentBody', 'notes').maxLength).toBe(limits.notes);
    expect(property('CreateApiKeyBody', 'name').maxLength).toBe(limits.apiKeyName);
    expect(property('CreateApiKeyBody', 'label').maxLength).toBe(limits.apiKeyLabel);
    expect(property('CreateAttributeBody', 'key').maxLength).toBe(limits.attributeKey);
    expect(property('CreateCohortBody', 'name').maxLength).toBe(limits.cohortName);
    expect(property('InviteMemberBody', 'email')).toMatchObject({ maxLength: limits.email, format: 'email', pattern: EMAIL_PATTERN.source });
    expect(property('CreateWebhookEndpointBody', 'url').maxLength).toBe(limits.webhookUrl);
    expect(property('CreateWebhookEndpointBody', 'description').maxLength).toBe(limits.webhookDescription);
    expect(property('CreateWebhookEndpointBody', 'event_types').maxItems).toBe(limits.webhookEventTypes);
    expect(property('CreateOnchainAssetBody', 'name').maxLength).toBe(limits.assetName);
    expect(property('CreateOnchainAssetBody', 'symbol').maxLength).toBe(limits.assetSymbol);
    expect(property('CreateOnchainAssetBody', 'key').pattern).toBe(limits.assetKey.source);
    expect(property('CreateOnchainAssetBody', 'decimals').maximum).toBe(limits.assetDecimals);
    expect(property('CreateOnchainAssetBody', 'asset_address').pattern).toBe(limits.assetAddress.source);
  });

  it('earning rule limits are the OpenAPI document\'s', () => {
    expect(property('CreateEarningRuleBody', 'name').maxLength).toBe(limits.ruleName);
    expect(property('CreateEarningRuleBody', 'description').maxLength).toBe(limits.description);
    expect(property('CreateEarningRuleBody', 'priority')).toMatchObject({ minimum: -limits.rulePriority, maximum: limits.rulePriority });
    expect(property('EarningRuleLimitsInput', 'total_xp_budget').pattern).toBe(limits.xpAmount.source);
    const items = (schema: string, name: string) => (property(schema, name) as { items: { properties: Record<string, Property> } }).items.properties;
    expect(items('CreateEarningRuleBody', 'multipliers').factor?.pattern).toBe(limits.factor.source);
    expect(items('EarningRuleLimitsInput', 'per_customer').max_times?.maximum).toBe(limits.ruleMaxTimes);
    const perUnit = (schemas.EarningRuleEffectInput as unknown as { oneOf: { properties: Record<string, Property> }[] }).oneOf[1]?.properties;
    expect(perUnit?.xp_per_unit?.pattern).toBe(limits.rate.source);
    expect(perUnit?.unit?.pattern).toBe(limits.rate.source);
  });

  it('the customer statuses are the document\'s, in its order', () => {
    expect(customerStatuses).toEqual(property('Customer', 'status').enum);
  });

  it('the cohort predicate count is the Worker\'s', () => {
    expect(limits.cohortPredicates).toBe(MAX_PREDICATES);
  });
});
