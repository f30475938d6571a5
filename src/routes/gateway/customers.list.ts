import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { customerListQuery, customerSchema } from '../../schemas/customer';
import { listCustomers } from '../../services/customers';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers',
  operationId: 'gatewayListCustomers',
  tags: ['Gateway'],
  summary: 'List customers (newest first)',
  description: 'Optional exact filters: `external_id`, `email` (case-insensitive), `status`.',
  security: gatewaySecurity,
  request: { query: customerListQuery },
  responses: {
    200: okResponse(pageSchema(customerSchema), 'A page of customers'),
    ...errorResponses(401, 422),
  },
});

export function registerGatewayCustomersList(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await listCustomers(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
