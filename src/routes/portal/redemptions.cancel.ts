import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { redemptionSchema } from '../../schemas/redemption';
import { cancelRedemption } from '../../services/redemptions';
import { redemptionParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/redemptions/{redemption_id}/cancel',
  operationId: 'cancelRedemption',
  tags: ['Redemptions'],
  summary: 'Cancel a redemption and refund it',
  description:
    'From completed: gives the XP back (a compensating `xp_redeem` entry that does not count toward lifetime XP; with an XP token it is minted back) and the unit of stock; a delivered onchain token stays with the customer. A redemption still settling onchain (initialized, pending), failed or canceled is 409 INVALID_STATUS_TRANSITION. 429 ONCHAIN_BUDGET_EXHAUSTED (with `Retry-After`): the write would settle onchain and the tenant\'s daily gas budget is used up; nothing is written, off-chain work goes on. Editor and up.',
  security: portalSecurity,
  request: { params: redemptionParams },
  responses: {
    200: okResponse(redemptionSchema, 'The canceled redemption'),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerRedemptionsCancel(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await cancelRedemption(c.get('services'), c.req.valid('param').redemption_id);
    return c.json({ success: true as const, data }, 200);
  });
}
