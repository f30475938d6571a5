import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { customerDataSchema } from '../../schemas/customer-data';
import { exportCustomerData } from '../../services/customer-data';
import { customerParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}/export',
  operationId: 'exportCustomerData',
  tags: ['Customers'],
  summary: 'Everything held about a customer (subject access)',
  description:
    'One JSON document, nothing paged: the customer, attribute values, points, wallets, onchain balances, cohorts, every internal transaction, point lot, redemption and event, each as the API shows it elsewhere. Admin role and up.',
  security: portalSecurity,
  request: { params: customerParams },
  responses: {
    200: okResponse(customerDataSchema, "The customer's data"),
    ...errorResponses(401, 403, 404),
  },
});

export function registerCustomersExport(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'manage_personal_data');
    const data = await exportCustomerData(c.get('services'), c.req.valid('param').userId);
    return c.json({ success: true as const, data }, 200);
  });
}
