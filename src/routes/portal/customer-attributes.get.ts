import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { attributeValueEntrySchema } from '../../schemas/attribute';
import { getCustomerAttributes } from '../../services/customer-attributes';
import { customerAttributeParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{customer_id}/attributes',
  operationId: 'getCustomerAttributes',
  tags: ['Attributes'],
  summary: "A customer's attribute values",
  description: 'One entry per definition of the tenant (ordered by key); `value` is null where the customer has none.',
  security: portalSecurity,
  request: { params: customerAttributeParams },
  responses: {
    200: okResponse(z.array(attributeValueEntrySchema), 'The attribute value entries'),
    ...errorResponses(401, 404),
  },
});

export function registerCustomerAttributesGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getCustomerAttributes(c.get('services'), c.req.valid('param').customer_id);
    return c.json({ success: true as const, data }, 200);
  });
}
