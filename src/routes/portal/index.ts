import { createRouter } from '../openapi';
import type { PortalEnv } from '../../app-env';
import { auditWrites } from '../../middleware/audit';
import { authenticateMember, type Redispatch } from '../../middleware/portal-auth';
import { limitPerAccount } from '../../middleware/rate-limit';
import { provideServices } from '../../middleware/services';
import { dispatchWebhooksAfterWrites } from '../../middleware/webhook-dispatch';
import { requireWellFormedTenantId } from './params';
import { registerPortalInternalTransactionGet } from './internal-transactions.get';
import { registerPortalInternalTransactionsList } from './internal-transactions.list';
import { registerPortalXpAdjustmentCreate } from './xp-adjustments.create';
import { registerApiKeysCreate } from './api-keys.create';
import { registerApiKeysList } from './api-keys.list';
import { registerApiKeysRevoke } from './api-keys.revoke';
import { registerMembersCreate } from './members.create';
import { registerMembersDelete } from './members.delete';
import { registerMembersList } from './members.list';
import { registerMembersUpdate } from './members.update';
import { registerAttributesCreate } from './attributes.create';
import { registerAuditLogList } from './audit-log.list';
import { registerAttributesDelete } from './attributes.delete';
import { registerAttributesList } from './attributes.list';
import { registerCohortMembersList } from './cohort-members.list';
import { registerCohortsCreate } from './cohorts.create';
import { registerEarningRulesSimulate } from './earning-rules.simulate';
import { registerEarningRulesCreate } from './earning-rules.create';
import { registerEarningRulesDelete } from './earning-rules.delete';
import { registerEarningRulesGet } from './earning-rules.get';
import { registerEarningRulesList } from './earning-rules.list';
import { registerEarningRulesUpdate } from './earning-rules.update';
import { registerEventsGet } from './events.get';
import { registerEventsList } from './events.list';
import { registerProgramSettingsGet } from './program-settings.get';
import { registerProgramSettingsPut } from './program-settings.put';
import { registerCohortsDelete } from './cohorts.delete';
import { registerCohortsGet } from './cohorts.get';
import { registerCohortsList } from './cohorts.list';
import { registerCohortsUpdate } from './cohorts.update';
import { registerCustomerAttributesGet } from './customer-attributes.get';
import { registerCustomerAttributesPut } from './customer-attributes.put';
import { registerCustomerBalancesList } from './customer-balances.list';
import { registerCustomerEligibilityGet } from './customer-eligibility.get';
import { registerCustomerPointLotsList } from './customer-point-lots.list';
import { registerCustomerPointsGet } from './customer-points.get';
import { registerCustomersErase } from './customers.erase';
import { registerCustomersExport } from './customers.export';
import { registerCustomersGet } from './customers.get';
import { registerCustomersList } from './customers.list';
import { registerCustomersUpdate } from './customers.update';
import { registerTiersCreate } from './tiers.create';
import { registerTiersDelete } from './tiers.delete';
import { registerTiersList } from './tiers.list';
import { registerTiersUpdate } from './tiers.update';
import { registerRewardsCreate } from './rewards.create';
import { registerRewardsDelete } from './rewards.delete';
import { registerRewardsGet } from './rewards.get';
import { registerRewardsList } from './rewards.list';
import { registerRewardsUpdate } from './rewards.update';
import { registerRedemptionsCancel } from './redemptions.cancel';
import { registerRedemptionsGet } from './redemptions.get';
import { registerRedemptionsList } from './redemptions.list';
import { registerAnalyticsTopCountries } from './analytics.top-countries';
import { registerAnalyticsTopRewards } from './analytics.top-rewards';
import { registerOnchainAssetsCreate } from './onchain-assets.create';
import { registerOnchainAssetsDelete } from './onchain-assets.delete';
import { registerOnchainAssetsGet } from './onchain-assets.get';
import { registerOnchainAssetsList } from './onchain-assets.list';
import { registerOnchainAssetsReconciliation } from './onchain-assets.reconciliation';
import { registerOnchainAssetsUpdate } from './onchain-assets.update';
import { registerWebhookEndpointsList } from './webhook-endpoints.list';
import { registerWebhookEndpointsCreate } from './webhook-endpoints.create';
import { registerWebhookEndpointsGet } from './webhook-endpoints.get';
import { registerWebhookEndpointsUpdate } from './webhook-endpoints.update';
import { registerWebhookEndpointsDelete } from './webhook-endpoints.delete';
import { registerWebhookEndpointsRotateSecret } from './webhook-endpoints.rotate-secret';
import { registerWebhookDeliveriesList } from './webhook-deliveries.list';
import { registerWebhookDeliveriesReplay } from './webhook-deliveries.replay';
import { registerImportsCreate } from './imports.create';
import { registerImportsErrors } from './imports.errors';
import { registerImportsGet } from './imports.get';
import { registerImportsList } from './imports.list';

/**
 * The portal surface under /tenant/{tenantId}: bearer token, and membership of that tenant.
 * `redispatch` is the whole Worker, for a read whose remembered membership turned out stale.
 */
export function portalApp(redispatch: Redispatch) {
  const app = createRouter<PortalEnv>();
  // Counted per account once it is known a member: a non-member's 404 spends no budget.
  app.use('*', requireWellFormedTenantId, authenticateMember(redispatch), limitPerAccount());
  app.use('*', dispatchWebhooksAfterWrites<PortalEnv>((c) => c.get('portalAuth').tenant.id));
  // The audit log of every write (domain/audit.ts): over the database the membership check left.
  app.use(
    '*',
    auditWrites(
      app,
      (c) => ({ type: 'account', id: c.get('account').id, label: c.get('account').email }),
      (c) => c.get('portalAuth').tenant.id,
    ),
  );
  // Last: the services' context takes the request's database as the membership check left it.
  app.use('*', provideServices<PortalEnv>((c) => c.get('portalAuth').tenant.id));
  registerMembersList(app);
  registerMembersCreate(app);
  registerMembersUpdate(app);
  registerMembersDelete(app);
  registerApiKeysList(app);
  registerApiKeysCreate(app);
  registerApiKeysRevoke(app);
  registerPortalInternalTransactionsList(app);
  registerPortalInternalTransactionGet(app);
  registerPortalXpAdjustmentCreate(app);
  registerAttributesList(app);
  registerAttributesCreate(app);
  registerAttributesDelete(app);
  registerCustomerAttributesGet(app);
  registerCustomerAttributesPut(app);
  registerCohortsList(app);
  registerCohortsCreate(app);
  registerEarningRulesSimulate(app);
  registerEarningRulesList(app);
  registerEarningRulesCreate(app);
  registerEarningRulesGet(app);
  registerEarningRulesUpdate(app);
  registerEarningRulesDelete(app);
  registerEventsList(app);
  registerEventsGet(app);
  registerProgramSettingsGet(app);
  registerProgramSettingsPut(app);
  registerCohortsGet(app);
  registerCohortsUpdate(app);
  registerCohortsDelete(app);
  registerCohortMembersList(app);
  registerCustomersList(app);
  registerCustomersGet(app);
  registerCustomersUpdate(app);
  registerCustomersErase(app);
  registerCustomersExport(app);
  registerCustomerBalancesList(app);
  registerCustomerEligibilityGet(app);
  registerCustomerPointsGet(app);
  registerCustomerPointLotsList(app);
  registerTiersList(app);
  registerTiersCreate(app);
  registerTiersUpdate(app);
  registerTiersDelete(app);
  registerRewardsList(app);
  registerRewardsCreate(app);
  registerRewardsGet(app);
  registerRewardsUpdate(app);
  registerRewardsDelete(app);
  registerRedemptionsList(app);
  registerRedemptionsGet(app);
  registerRedemptionsCancel(app);
  registerAnalyticsTopRewards(app);
  registerAnalyticsTopCountries(app);
  registerOnchainAssetsList(app);
  registerOnchainAssetsCreate(app);
  registerOnchainAssetsGet(app);
  registerOnchainAssetsUpdate(app);
  registerOnchainAssetsDelete(app);
  registerOnchainAssetsReconciliation(app);
  registerWebhookEndpointsList(app);
  registerWebhookEndpointsCreate(app);
  registerWebhookEndpointsGet(app);
  registerWebhookEndpointsUpdate(app);
  registerWebhookEndpointsDelete(app);
  registerWebhookEndpointsRotateSecret(app);
  registerWebhookDeliveriesList(app);
  registerWebhookDeliveriesReplay(app);
  registerAuditLogList(app);
  registerImportsList(app);
  registerImportsCreate(app);
  registerImportsGet(app);
  registerImportsErrors(app);
  return app;
}
