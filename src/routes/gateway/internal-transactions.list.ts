import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { internalTransactionListQuery, internalTransactionSchema } from '../../schemas/internal-transaction';
import { listInternalTransactions } from '../../services/internal-transactions';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/internal-transactions',
  operationId: 'gatewayListInternalTransactions',
  tags: ['Gateway'],
  summary: 'List internal transactions (newest first)',
  security: gatewaySecurity,
  request: { query: internalTransactionListQuery },
  responses: {
    200: okResponse(pageSchema(internalTransactionSchema), 'A page of internal transactions'),
    ...errorResponses(401, 422),
  },
});

export function registerGatewayInternalTransactionsList(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await listInternalTransactions(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
