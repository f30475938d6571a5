import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { internalTransactionListQuery, internalTransactionSchema } from '../../schemas/internal-transaction';
import { listInternalTransactions } from '../../services/internal-transactions';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/internal-transactions',
  operationId: 'listInternalTransactions',
  tags: ['Internal transactions'],
  summary: 'List internal transactions (newest first), with tenant and user briefs',
  security: portalSecurity,
  request: { params: tenantParams, query: internalTransactionListQuery },
  responses: {
    200: okResponse(pageSchema(internalTransactionSchema), 'A page of internal transactions'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerPortalInternalTransactionsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { tenant } = c.get('portalAuth');
    const data = await listInternalTransactions(c.get('services'), c.req.valid('query'), { tenant });
    return c.json({ success: true as const, data }, 200);
  });
}
