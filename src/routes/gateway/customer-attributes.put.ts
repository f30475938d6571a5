import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { attributeValueEntrySchema, setAttributeValuesBodySchema } from '../../schemas/attribute';
import { idempotencyHeaders, replayedResponseHeaders } from '../../schemas/idempotency';
import { setCustomerAttributes } from '../../services/customer-attributes';
import { customerParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'put',
  path: '/customers/{userId}/attributes',
  operationId: 'gatewaySetCustomerAttributes',
  tags: ['Gateway'],
  summary: "Set several of a customer's attribute values",
  description:
    'Body `{values: {key: value}}`. Each value is checked against its attribute type (422 at `values.<key>`, nothing written); `null` clears a value; keys not sent keep their values. Answers all entries after the write.',
  security: gatewaySecurity,
  request: {
    params: customerParams,
    headers: idempotencyHeaders,
    body: jsonBody(setAttributeValuesBodySchema),
  },
  responses: {
    200: { ...okResponse(z.array(attributeValueEntrySchema), 'The attribute value entries after the write'), headers: replayedResponseHeaders },
    ...errorResponses(400, 401, 404, 409, 413, 422),
  },
});

export function registerGatewayCustomerAttributesPut(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await setCustomerAttributes(c.get('services'), c.req.valid('param').userId, c.req.valid('json'));
    return c.json({ success: true as const, data }, 200);
  });
}
