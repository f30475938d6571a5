import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AccountEnv, AppEnv } from '../../app-env';
import { createRouter } from '../openapi';
import { registerInfo } from './info';
import { registerSystemCmsConfig } from './system-cms-config.get';
import { registerSystemMasterdata } from './system-masterdata.get';
import { registerTenantCreate } from './tenants.create';
import { registerUserMe } from './user-me.get';

/** Routes outside the tenant path: /info, /system/masterdata and /system/cms-config (no token), /user/me, /tenants. */
export function registerPlatform(app: OpenAPIHono<AppEnv>) {
  registerInfo(app);
  registerSystemMasterdata(app);
  registerSystemCmsConfig(app);
  // Token routes: app.ts runs authenticateAccount on /user/* and /tenants, which sets `account`.
  const signedIn = createRouter<AccountEnv>();
  registerUserMe(signedIn);
  registerTenantCreate(signedIn);
  app.route('/', signedIn);
}
