import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { pointLotListQuery, pointLotSchema } from '../../schemas/point-lot';
import { listPointLots } from '../../services/customer-points';
import { customerParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}/point-lots',
  operationId: 'gatewayListCustomerPointLots',
  tags: ['Gateway'],
  summary: "List a customer's point lots (newest first)",
  description: 'One lot per credit: what remains of it, and when it becomes spendable and expires.',
  security: gatewaySecurity,
  request: { params: customerParams, query: pointLotListQuery },
  responses: {
    200: okResponse(pageSchema(pointLotSchema), 'A page of point lots'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerGatewayCustomerPointLotsList(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await listPointLots(c.get('services'), c.req.valid('param').userId, c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
