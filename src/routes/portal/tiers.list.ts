import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { tierListQuery, tierRuleSchema } from '../../schemas/tier';
import { listTiers } from '../../services/tiers';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/tiers',
  operationId: 'listTiers',
  tags: ['Tiers'],
  summary: 'List tier rules (lowest threshold first)',
  description: 'Optional `tier_name` filter (exact match), as on the gateway.',
  security: portalSecurity,
  request: { params: tenantParams, query: tierListQuery },
  responses: {
    200: okResponse(pageSchema(tierRuleSchema), 'A page of tier rules'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerTiersList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listTiers(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
