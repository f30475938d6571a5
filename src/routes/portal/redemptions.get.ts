import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { redemptionSchema } from '../../schemas/redemption';
import { getRedemption } from '../../services/redemptions';
import { redemptionParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/redemptions/{redemption_id}',
  operationId: 'getRedemption',
  tags: ['Redemptions'],
  summary: 'Get a redemption',
  security: portalSecurity,
  request: { params: redemptionParams },
  responses: {
    200: okResponse(redemptionSchema, 'The redemption'),
    ...errorResponses(401, 404),
  },
});

export function registerRedemptionsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getRedemption(c.get('services'), c.req.valid('param').redemption_id);
    return c.json({ success: true as const, data }, 200);
  });
}
