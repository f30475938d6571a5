import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { rewardSchema } from '../../schemas/reward';
import { getReward } from '../../services/rewards';
import { rewardParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/rewards/{rewardId}',
  operationId: 'getReward',
  tags: ['Rewards'],
  summary: 'Get a reward',
  security: portalSecurity,
  request: { params: rewardParams },
  responses: {
    200: okResponse(rewardSchema, 'The reward'),
    ...errorResponses(401, 404),
  },
});

export function registerRewardsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getReward(c.get('services'), c.req.valid('param').rewardId);
    return c.json({ success: true as const, data }, 200);
  });
}
