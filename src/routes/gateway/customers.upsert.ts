import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { responseWithWrite } from '../../middleware/idempotency';
import { customerSchema, upsertCustomerBodySchema } from '../../schemas/customer';
import { idempotencyHeaders, replayedResponseHeaders } from '../../schemas/idempotency';
import { upsertCustomer } from '../../services/customers';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/customers',
  operationId: 'gatewayUpsertCustomer',
  tags: ['Gateway'],
  summary: 'Create or update a customer by external_id',
  description:
    'Creates the customer (status `active`, with its custodial wallet) and answers 201, or, when the tenant already has a customer with that `external_id`, changes only the fields sent (`null` clears one) and answers 200. `country_code` is an uppercase ISO 3166-1 alpha-2 code; emails are stored lowercase.',
  security: gatewaySecurity,
  request: { headers: idempotencyHeaders, body: jsonBody(upsertCustomerBodySchema) },
  responses: {
    200: { ...okResponse(customerSchema, 'The updated customer'), headers: replayedResponseHeaders },
    201: { ...okResponse(customerSchema, 'The new customer'), headers: replayedResponseHeaders },
    ...errorResponses(400, 401, 409, 413, 422),
  },
});

export function registerGatewayCustomersUpsert(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const responses = { created: responseWithWrite(c, 201), updated: responseWithWrite(c, 200) };
    const { customer, created } = await upsertCustomer(c.get('services'), c.req.valid('json'), { walletMnemonic: c.get('config').WALLET_MNEMONIC, responses });
    return created ? c.json({ success: true as const, data: customer }, 201) : c.json({ success: true as const, data: customer }, 200);
  });
}
