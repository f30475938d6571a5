import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { rewardSchema } from '../../schemas/reward';
import { listActiveRewards } from '../../services/rewards';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/rewards',
  operationId: 'gatewayListRewards',
  tags: ['Gateway'],
  summary: 'List active rewards (newest first)',
  description: 'Only rewards with status `active`: what customers can be offered.',
  security: gatewaySecurity,
  request: { query: pageQuery },
  responses: {
    200: okResponse(pageSchema(rewardSchema), 'A page of active rewards'),
    ...errorResponses(401, 422),
  },
});

export function registerGatewayRewardsList(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await listActiveRewards(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
