import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { tierListQuery, tierRuleSchema } from '../../schemas/tier';
import { listTiers } from '../../services/tiers';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/tiers',
  operationId: 'gatewayListTiers',
  tags: ['Gateway'],
  summary: 'List tier rules (lowest threshold first)',
  description: 'Optional `tier_name` filter (exact match).',
  security: gatewaySecurity,
  request: { query: tierListQuery },
  responses: {
    200: okResponse(pageSchema(tierRuleSchema), 'A page of tier rules'),
    ...errorResponses(401, 422),
  },
});

export function registerGatewayTiersList(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await listTiers(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
