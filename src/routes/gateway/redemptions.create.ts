import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { responseWithWrite } from '../../middleware/idempotency';
import { idempotencyHeaders, replayedResponseHeaders } from '../../schemas/idempotency';
import { createRedemptionBodySchema, redemptionSchema } from '../../schemas/redemption';
import { redeemReward } from '../../services/redemptions';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/redemptions',
  operationId: 'gatewayCreateRedemption',
  tags: ['Gateway'],
  summary: 'Redeem a reward for a customer',
  description:
    'Checks, in order, each a 409 with its own code: customer active or reinstated (CUSTOMER_NOT_ACTIVE), reward active (REWARD_NOT_ACTIVE), stock left (OUT_OF_STOCK), tier reached (NOT_ELIGIBLE), balance covers the cost (INSUFFICIENT_XP). Then spends the XP, takes the stock and records the redemption atomically. Off-chain rewards complete at once. A reward with an onchain asset (or XP mirrored onto an XP token) is `initialized`: the XP is reserved at once, the reward is minted to the customer custodial wallet, then the XP burned; the redemption becomes `pending`, then `completed`, or `failed` with the XP and stock given back. A reward metadata amount that is not a whole number is 409. An inactive or failed asset is 409 REWARD_NOT_ACTIVE. 429 ONCHAIN_BUDGET_EXHAUSTED (with `Retry-After`): the write would settle onchain and the tenant\'s daily gas budget is used up; nothing is written, off-chain work goes on.',
  security: gatewaySecurity,
  request: { headers: idempotencyHeaders, body: jsonBody(createRedemptionBodySchema) },
  responses: {
    201: { ...okResponse(redemptionSchema, 'The new redemption'), headers: replayedResponseHeaders },
    ...errorResponses(400, 401, 404, 409, 413, 422),
  },
});

export function registerGatewayRedemptionsCreate(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await redeemReward(c.get('services'), c.req.valid('json'), responseWithWrite(c, 201));
    return c.json({ success: true as const, data }, 201);
  });
}
