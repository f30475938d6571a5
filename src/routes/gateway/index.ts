import { createRouter } from '../openapi';
import type { GatewayEnv } from '../../app-env';
import { auditWrites } from '../../middleware/audit';
import { gatewayAuth } from '../../middleware/gateway-auth';
import { idempotency } from '../../middleware/idempotency';
import { dispatchWebhooksAfterWrites } from '../../middleware/webhook-dispatch';
import { limitPerApiKeyAndTenant } from '../../middleware/rate-limit';
import { provideServices } from '../../middleware/services';
import { registerGatewayCustomerAttributesPut } from './customer-attributes.put';
import { registerGatewayInternalTransactionGet } from './internal-transactions.get';
import { registerGatewayInternalTransactionsList } from './internal-transactions.list';
import { registerGatewayInternalTransactionReverse } from './internal-transactions.reverse';
import { registerGatewayXpCreate } from './xp.create';
import { registerGatewayEventsCreate } from './events.create';
import { registerGatewayEventGet } from './events.get';
import { registerGatewayEventsList } from './events.list';
import { registerGatewayCustomerBalancesList } from './customer-balances.list';
import { registerGatewayCustomerEligibilityGet } from './customer-eligibility.get';
import { registerGatewayCustomerPointLotsList } from './customer-point-lots.list';
import { registerGatewayCustomerPointsGet } from './customer-points.get';
import { registerGatewayCustomerGet } from './customers.get';
import { registerGatewayCustomersList } from './customers.list';
import { registerGatewayCustomersUpsert } from './customers.upsert';
import { registerGatewayTiersList } from './tiers.list';
import { registerGatewayRewardsList } from './rewards.list';
import { registerGatewayRedemptionsCreate } from './redemptions.create';
import { registerGatewayRedemptionsGet } from './redemptions.get';

/** The gateway surface: HMAC-signed requests from a tenant's backend; the tenant comes from the key. */
export function gatewayApp() {
  const app = createRouter<GatewayEnv>();
  app.use('*', gatewayAuth());
  // Counted per key, then per tenant, once the signature is verified; a 429 comes before the
  // idempotency claim, so a retry with the same X-Idempotency-Key (even the same signed request) is
  // not refused as in use.
  app.use('*', limitPerApiKeyAndTenant());
  // Every POST/PUT/PATCH/DELETE below runs at most once per X-Idempotency-Key.
  app.use('*', idempotency());
  app.use('*', dispatchWebhooksAfterWrites<GatewayEnv>((c) => c.get('gatewayAuth').tenantId));
  // The audit log of customer and attribute writes (domain/audit.ts), after the claim: it leads, the audit context follows.
  app.use('*', auditWrites(app, (c) => ({ type: 'api_key', id: c.get('gatewayAuth').apiKeyId, label: c.get('gatewayAuth').keyId }), (c) => c.get('gatewayAuth').tenantId));
  // Last: the services' context takes the request's database as the key guard and the claim left it.
  app.use('*', provideServices<GatewayEnv>((c) => c.get('gatewayAuth').tenantId));
  registerGatewayInternalTransactionGet(app);
  registerGatewayInternalTransactionsList(app);
  registerGatewayInternalTransactionReverse(app);
  registerGatewayXpCreate(app);
  registerGatewayEventsCreate(app);
  registerGatewayEventsList(app);
  registerGatewayEventGet(app);
  registerGatewayCustomerAttributesPut(app);
  registerGatewayCustomersList(app);
  registerGatewayCustomersUpsert(app);
  registerGatewayCustomerGet(app);
  registerGatewayCustomerBalancesList(app);
  registerGatewayCustomerEligibilityGet(app);
  registerGatewayCustomerPointsGet(app);
  registerGatewayCustomerPointLotsList(app);
  registerGatewayTiersList(app);
  registerGatewayRewardsList(app);
  registerGatewayRedemptionsCreate(app);
  registerGatewayRedemptionsGet(app);
  return app;
}
