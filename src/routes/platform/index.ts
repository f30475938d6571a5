import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AccountEnv, AppEnv } from '../../app-env';
import { createRouter } from '../openapi';
import { registerFilesGet } from './files.get';
import { registerInfo } from './info';
import { registerSystemCmsConfig } from './system-cms-config.get';
import { registerSystemMasterdata } from './system-masterdata.get';
import { registerTenantCreate } from './tenants.create';
import { registerUserMe } from './user-me.get';

/** Routes outside the tenant path: /info, /system/masterdata, /system/cms-config and /files/{token} (no token), /user/me, /tenants. */
export function registerPlatform(app: OpenAPIHono<AppEnv>) {
  registerInfo(app);
  registerSystemMasterdata(app);
  registerSystemCmsConfig(app);
  // The signed link is the credential (a browser download): no bearer token.
  registerFilesGet(app);
  // Token routes: app.ts runs authenticateAccount on /user/* and /tenants, which sets `account`.
  const signedIn = createRouter<AccountEnv>();
  registerUserMe(signedIn);
  registerTenantCreate(signedIn);
  app.route('/', signedIn);
}
