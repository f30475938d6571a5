import { createRouter } from '../../lib/openapi';
import type { GatewayEnv } from '../../env';
import { gatewayAuth } from '../../middleware/gateway-auth';
import { registerGatewayInternalTransactionGet } from './internal-transactions.get';

/** The gateway surface: HMAC-signed requests from a tenant's backend; the tenant comes from the key. */
export function gatewayApp() {
  const app = createRouter<GatewayEnv>();
  app.use('*', gatewayAuth());
  registerGatewayInternalTransactionGet(app);
  return app;
}
