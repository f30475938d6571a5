import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { customerPointsSchema } from '../../schemas/point-lot';
import { getCustomerPoints } from '../../services/customer-points';
import { customerParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}/points',
  operationId: 'getCustomerPoints',
  tags: ['Customers'],
  summary: "Get a customer's points: spendable, pending, lifetime and next expiring",
  security: portalSecurity,
  request: { params: customerParams },
  responses: {
    200: okResponse(customerPointsSchema, "The customer's points"),
    ...errorResponses(401, 404),
  },
});

export function registerCustomerPointsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getCustomerPoints(c.get('services'), c.req.valid('param').userId);
    return c.json({ success: true as const, data }, 200);
  });
}
