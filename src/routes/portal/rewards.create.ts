import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { createRewardBodySchema, rewardSchema } from '../../schemas/reward';
import { createReward } from '../../services/rewards';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/rewards',
  operationId: 'createReward',
  tags: ['Rewards'],
  summary: 'Create a reward',
  description:
    'Starts as `draft` unless `status` is given. `min_tier_id` and `onchain_asset_id` must name a tier and an asset of this tenant (422 at that field). `stock` null or omitted means unlimited. Editor and up.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createRewardBodySchema) },
  responses: {
    201: okResponse(rewardSchema, 'The new reward'),
    ...errorResponses(401, 403, 404, 413, 422),
  },
});

export function registerRewardsCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await createReward(c.get('services'), c.req.valid('json'));
    return c.json({ success: true as const, data }, 201);
  });
}
