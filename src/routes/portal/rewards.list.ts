import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { rewardListQuery, rewardSchema } from '../../schemas/reward';
import { listRewards } from '../../services/rewards';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/rewards',
  operationId: 'listRewards',
  tags: ['Rewards'],
  summary: 'List rewards (newest first)',
  description: 'Optional filter `status` (draft, active, archived).',
  security: portalSecurity,
  request: { params: tenantParams, query: rewardListQuery },
  responses: {
    200: okResponse(pageSchema(rewardSchema), 'A page of rewards'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerRewardsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listRewards(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
