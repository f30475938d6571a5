import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { customerAssetBalanceSchema } from '../../schemas/balance';
import { listCustomerBalances } from '../../services/customer-balances';
import { customerParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}/balances',
  operationId: 'listCustomerBalances',
  tags: ['Customers'],
  summary: "List a customer's onchain asset balances (newest first)",
  description: 'Balances as last indexed from the chain (`last_updated_block`).',
  security: portalSecurity,
  request: { params: customerParams, query: pageQuery },
  responses: {
    200: okResponse(pageSchema(customerAssetBalanceSchema), 'A page of customer asset balances'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerCustomerBalancesList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listCustomerBalances(c.get('services'), c.req.valid('param').userId, c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
