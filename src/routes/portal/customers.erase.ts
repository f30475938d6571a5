import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { customerSchema } from '../../schemas/customer';
import { eraseCustomer } from '../../services/customer-data';
import { customerParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/customers/{userId}/erase',
  operationId: 'eraseCustomer',
  tags: ['Customers'],
  summary: "Erase a person's data",
  description:
    "Removes the person's email, username, external id (replaced by an unguessable `erased_...` id, so an upsert with the old one creates a new customer) and attribute values, and purges them from webhook bodies and stored idempotent responses. The ledger, redemptions, balances and tier stay under the customer id. Sends `customer.erased`. Idempotent: erasing again answers the same customer. Admin role and up.",
  security: portalSecurity,
  request: { params: customerParams },
  responses: {
    200: okResponse(customerSchema, 'The erased customer'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerCustomersErase(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'manage_personal_data');
    const data = await eraseCustomer(c.get('services'), c.req.valid('param').userId);
    return c.json({ success: true as const, data }, 200);
  });
}
