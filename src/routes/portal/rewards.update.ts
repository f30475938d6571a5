import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { rewardSchema, updateRewardBodySchema } from '../../schemas/reward';
import { updateReward } from '../../services/rewards';
import { rewardParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'patch',
  path: '/rewards/{rewardId}',
  operationId: 'updateReward',
  tags: ['Rewards'],
  summary: 'Update a reward',
  description:
    'Partial update: only the fields sent change, `null` clears a nullable one (`stock: null` = unlimited). Status moves: draft -> active | archived, active <-> archived; never back to draft (409). Editor and up.',
  security: portalSecurity,
  request: { params: rewardParams, body: jsonBody(updateRewardBodySchema) },
  responses: {
    200: okResponse(rewardSchema, 'The updated reward'),
    ...errorResponses(401, 403, 404, 409, 413, 422),
  },
});

export function registerRewardsUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await updateReward(c.get('services'), c.req.valid('param').rewardId, c.req.valid('json'));
    return c.json({ success: true as const, data }, 200);
  });
}
