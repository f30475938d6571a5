import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { earningRuleSchema } from '../../schemas/earning-rule';
import { getEarningRule } from '../../services/earning-rules';
import { earningRuleParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/earning-rules/{id}',
  operationId: 'getEarningRule',
  tags: ['Earning rules'],
  summary: 'Get an earning rule with its counters',
  security: portalSecurity,
  request: { params: earningRuleParams },
  responses: {
    200: okResponse(earningRuleSchema, 'The earning rule'),
    ...errorResponses(401, 404),
  },
});

export function registerEarningRulesGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getEarningRule(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data }, 200);
  });
}
