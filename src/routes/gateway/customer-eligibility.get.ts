import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { eligibilitySchema } from '../../schemas/tier';
import { checkTierEligibility } from '../../services/tiers';
import { customerTierParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/customers/{userId}/tier/{tierId}/eligibility',
  operationId: 'gatewayGetCustomerEligibility',
  tags: ['Gateway'],
  summary: 'Whether a customer qualifies for a tier',
  description: "Eligible when the customer's `lifetime_xp` is at least the tier's `min_xp_threshold`.",
  security: gatewaySecurity,
  request: { params: customerTierParams },
  responses: {
    200: okResponse(eligibilitySchema, 'The eligibility result'),
    ...errorResponses(401, 404),
  },
});

export function registerGatewayCustomerEligibilityGet(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const { userId, tierId } = c.req.valid('param');
    const data = await checkTierEligibility(c.get('services'), { userId, tierId });
    return c.json({ success: true as const, data }, 200);
  });
}
