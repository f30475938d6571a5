import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { customerListQuery, customerSchema } from '../../schemas/customer';
import { listCustomers } from '../../services/customers';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers',
  operationId: 'listCustomers',
  tags: ['Customers'],
  summary: 'List customers (newest first)',
  description: 'Optional exact filters: `external_id`, `email` (case-insensitive), `status`.',
  security: portalSecurity,
  request: { params: tenantParams, query: customerListQuery },
  responses: {
    200: okResponse(pageSchema(customerSchema), 'A page of customers'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerCustomersList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listCustomers(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
