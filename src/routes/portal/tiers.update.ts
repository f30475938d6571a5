import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { replaceTierBodySchema } from '../../schemas/tier';
import { updateTier } from '../../services/tiers';
import { tierParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'put',
  path: '/tiers/{tierId}',
  operationId: 'replaceTier',
  tags: ['Tiers'],
  summary: 'Replace a tier rule',
  description: 'Replaces the whole rule, so every field is required. `tier_name` is unique in the tenant (409). Editor and up.',
  security: portalSecurity,
  request: { params: tierParams, body: jsonBody(replaceTierBodySchema) },
  responses: {
    200: okResponse(successFlagSchema, 'The tier rule was replaced'),
    ...errorResponses(401, 403, 404, 409, 422),
  },
});

export function registerTiersUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    await updateTier(c.get('services'), c.req.valid('param').tierId, c.req.valid('json'));
    return c.json({ success: true as const, data: { success: true as const } }, 200);
  });
}
