import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { customerSchema } from '../../schemas/customer';
import { getCustomer } from '../../services/customers';
import { customerParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}',
  operationId: 'gatewayGetCustomer',
  tags: ['Gateway'],
  summary: 'Get a customer',
  security: gatewaySecurity,
  request: { params: customerParams },
  responses: {
    200: okResponse(customerSchema, 'The customer'),
    ...errorResponses(401, 404),
  },
});

export function registerGatewayCustomerGet(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await getCustomer(c.get('services'), c.req.valid('param').userId);
    return c.json({ success: true as const, data }, 200);
  });
}
