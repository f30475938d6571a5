import { createRouter } from '../../lib/openapi';
import type { PortalEnv } from '../../env';
import { resolveTenantMember } from '../../middleware/portal-auth';

/** The portal surface under /tenant/{tenantId}: bearer token, and membership of that tenant. */
export function portalApp() {
  const app = createRouter<PortalEnv>();
  app.use('*', resolveTenantMember);
  return app;
}
