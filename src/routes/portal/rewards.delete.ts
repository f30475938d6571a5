import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, okResponse } from '../openapi';
import { deleteReward } from '../../services/rewards';
import { rewardParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/rewards/{rewardId}',
  operationId: 'deleteReward',
  tags: ['Rewards'],
  summary: 'Delete a reward',
  description: 'Only a reward that was never redeemed; one with redemptions is refused with 409 (archive it instead). Editor and up.',
  security: portalSecurity,
  request: { params: rewardParams },
  responses: {
    200: okResponse(successFlagSchema, 'The reward was deleted'),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerRewardsDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    await deleteReward(c.get('services'), c.req.valid('param').rewardId);
    return c.json({ success: true as const, data: { success: true as const } }, 200);
  });
}
