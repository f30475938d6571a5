import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { attributeValueEntrySchema, setAttributeValuesBodySchema } from '../../schemas/attribute';
import { setCustomerAttributes } from '../../services/customer-attributes';
import { customerAttributeParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'put',
  path: '/customers/{customer_id}/attributes',
  operationId: 'setCustomerAttributes',
  tags: ['Attributes'],
  summary: "Set several of a customer's attribute values",
  description:
    'As the gateway operation: each value is checked against its type (422 at `values.<key>`, nothing written), `null` clears a value; keys not sent keep their values. Answers all entries after the write. Editor role and up.',
  security: portalSecurity,
  request: { params: customerAttributeParams, body: jsonBody(setAttributeValuesBodySchema) },
  responses: {
    200: okResponse(z.array(attributeValueEntrySchema), 'The attribute value entries after the write'),
    ...errorResponses(401, 403, 404, 413, 422),
  },
});

export function registerCustomerAttributesPut(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await setCustomerAttributes(c.get('services'), c.req.valid('param').customer_id, c.req.valid('json'));
    return c.json({ success: true as const, data }, 200);
  });
}
