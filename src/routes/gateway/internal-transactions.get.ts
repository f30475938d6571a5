import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { internalTransactionSchema } from '../../schemas/internal-transaction';
import { getInternalTransaction } from '../../services/internal-transactions';
import { internalTransactionParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/internal-transactions/{internal_transaction_id}',
  operationId: 'gatewayGetInternalTransaction',
  tags: ['Gateway'],
  summary: 'Get an internal transaction',
  security: gatewaySecurity,
  request: { params: internalTransactionParams },
  responses: {
    200: okResponse(internalTransactionSchema, 'The internal transaction'),
    ...errorResponses(401, 404),
  },
});

export function registerGatewayInternalTransactionGet(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await getInternalTransaction(c.get('services'), c.req.valid('param').internal_transaction_id);
    return c.json({ success: true as const, data }, 200);
  });
}
