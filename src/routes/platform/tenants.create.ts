import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import type { AccountEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { createTenantBodySchema, tenantSchema } from '../../schemas/tenant';
import { createTenant } from '../../services/tenants';
import { portalSecurity } from '../portal/security';
import { requestContext } from '../../middleware/services';

/**
 * Runs before body validation: a closed sign-up refuses whatever was sent. (A mistyped setting
 * never gets here: the environment schema answers 503 naming TENANT_SIGNUP.)
 */
const signupOpen = createMiddleware<AccountEnv>(async function signupOpen(c, next) {
  if (c.get('config').TENANT_SIGNUP !== 'open') throw new ApiError('FORBIDDEN', 'Tenant sign-up is closed on this platform');
  await next();
});

const route = createRoute({
  method: 'post',
  path: '/tenants',
  operationId: 'createTenant',
  tags: ['Platform'],
  summary: 'Create a tenant; the caller becomes its super_admin',
  description: 'Refused with 403 when the platform runs with `TENANT_SIGNUP=closed`.',
  security: portalSecurity,
  middleware: [signupOpen] as const,
  request: { body: jsonBody(createTenantBodySchema) },
  responses: {
    201: okResponse(tenantSchema, 'The new tenant'),
    ...errorResponses(401, 403, 409, 422),
  },
});

export function registerTenantCreate(app: OpenAPIHono<AccountEnv>) {
  app.openapi(route, async (c) => {
    const data = await createTenant(requestContext(c), { account: c.get('account'), ...c.req.valid('json') }, c.get('config').PINNED_SHARD);
    return c.json({ success: true as const, data }, 201);
  });
}
