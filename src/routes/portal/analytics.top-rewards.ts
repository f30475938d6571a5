import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { analyticsQuery, topRewardsSchema } from '../../schemas/analytics';
import { topRewards } from '../../services/analytics';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/analytics/top-rewards',
  operationId: 'getTopRewards',
  tags: ['Analytics'],
  summary: 'Top rewards by redemptions',
  description: 'Redemptions that stand (not failed or canceled) per reward, highest first, ties by title. `limit` (default 10, max 100); optional inclusive `from`/`to` on the redemption time. Shares are of all counted redemptions, rounded to 2 decimals.',
  security: portalSecurity,
  request: { params: tenantParams, query: analyticsQuery },
  responses: {
    200: okResponse(topRewardsSchema, 'Top rewards by redemptions'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerAnalyticsTopRewards(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await topRewards(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
