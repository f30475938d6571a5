import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { customerStatusBodySchema } from '../../schemas/customer';
import { changeCustomerStatus } from '../../services/customers';
import { customerParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'patch',
  path: '/customers/{userId}',
  operationId: 'updateCustomer',
  tags: ['Customers'],
  summary: "Change a customer's account status",
  description:
    'Allowed moves: pending->active, active->suspended, suspended->reinstated, reinstated->suspended. Any other move, the same status included, is 409 INVALID_STATUS_TRANSITION naming both states. Editor and up.',
  security: portalSecurity,
  request: { params: customerParams, body: jsonBody(customerStatusBodySchema) },
  responses: {
    200: okResponse(successFlagSchema, 'The status was changed'),
    ...errorResponses(401, 403, 404, 409, 422),
  },
});

export function registerCustomersUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    await changeCustomerStatus(c.get('services'), c.req.valid('param').userId, c.req.valid('json').status);
    return c.json({ success: true as const, data: { success: true as const } }, 200);
  });
}
