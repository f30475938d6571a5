import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { internalTransactionSchema } from '../../schemas/internal-transaction';
import { getInternalTransaction } from '../../services/internal-transactions';
import { internalTransactionParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/internal-transactions/{internal_transaction_id}',
  operationId: 'getInternalTransaction',
  tags: ['Internal transactions'],
  summary: 'Get an internal transaction, with tenant and user briefs',
  security: portalSecurity,
  request: { params: internalTransactionParams },
  responses: {
    200: okResponse(internalTransactionSchema, 'The internal transaction'),
    ...errorResponses(401, 404),
  },
});

export function registerPortalInternalTransactionGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { tenant } = c.get('portalAuth');
    const data = await getInternalTransaction(c.get('services'), c.req.valid('param').internal_transaction_id, { tenant });
    return c.json({ success: true as const, data }, 200);
  });
}
