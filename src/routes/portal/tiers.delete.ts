import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, okResponse } from '../openapi';
import { deleteTier } from '../../services/tiers';
import { tierParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/tiers/{tierId}',
  operationId: 'deleteTier',
  tags: ['Tiers'],
  summary: 'Delete a tier rule',
  description: 'Refused with 409 while a reward names the tier as its `min_tier_id`. Customers are re-placed on the remaining tiers at once. Editor and up.',
  security: portalSecurity,
  request: { params: tierParams },
  responses: {
    200: okResponse(successFlagSchema, 'The tier rule was deleted'),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerTiersDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    await deleteTier(c.get('services'), c.req.valid('param').tierId);
    return c.json({ success: true as const, data: { success: true as const } }, 200);
  });
}
