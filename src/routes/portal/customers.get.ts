import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { customerSchema } from '../../schemas/customer';
import { getCustomer } from '../../services/customers';
import { customerParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}',
  operationId: 'getCustomer',
  tags: ['Customers'],
  summary: 'Get a customer',
  security: portalSecurity,
  request: { params: customerParams },
  responses: {
    200: okResponse(customerSchema, 'The customer'),
    ...errorResponses(401, 404),
  },
});

export function registerCustomersGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getCustomer(c.get('services'), c.req.valid('param').userId);
    return c.json({ success: true as const, data }, 200);
  });
}
