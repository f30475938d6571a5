import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { customerPointsSchema } from '../../schemas/point-lot';
import { getCustomerPoints } from '../../services/customer-points';
import { customerParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}/points',
  operationId: 'gatewayGetCustomerPoints',
  tags: ['Gateway'],
  summary: "Get a customer's points: spendable, pending, lifetime and next expiring",
  security: gatewaySecurity,
  request: { params: customerParams },
  responses: {
    200: okResponse(customerPointsSchema, "The customer's points"),
    ...errorResponses(401, 404),
  },
});

export function registerGatewayCustomerPointsGet(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await getCustomerPoints(c.get('services'), c.req.valid('param').userId);
    return c.json({ success: true as const, data }, 200);
  });
}
