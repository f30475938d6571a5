import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { registerInfo } from './info';

/** Routes outside the tenant path: /info, /system/masterdata (no token), /user/me, /tenants. */
export function registerPlatform(app: OpenAPIHono<AppEnv>) {
  registerInfo(app);
}
