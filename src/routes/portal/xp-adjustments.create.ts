import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { internalTransactionSchema } from '../../schemas/internal-transaction';
import { xpAdjustmentBodySchema } from '../../schemas/xp';
import { adjustXp } from '../../services/ledger';
import { customerParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/customers/{userId}/xp-adjustments',
  operationId: 'adjustCustomerXp',
  tags: ['Customers'],
  summary: "Adjust a customer's XP balance",
  description: 'Appends an `xp_admin_adjust` transaction (positive or negative). The balance never goes below zero (409 INSUFFICIENT_XP). With an XP token it settles onchain: a negative adjustment (debit) reserves the XP at once and gives it back if the burn fails; a positive one (credit) counts once completed. 429 ONCHAIN_BUDGET_EXHAUSTED (with `Retry-After`): the write would settle onchain and the tenant\'s daily gas budget is used up; nothing is written, off-chain work goes on. Editor role and up.',
  security: portalSecurity,
  request: {
    params: customerParams,
    body: jsonBody(xpAdjustmentBodySchema),
  },
  responses: {
    201: okResponse(internalTransactionSchema, 'The new internal transaction'),
    ...errorResponses(401, 403, 404, 409, 413, 422),
  },
});

export function registerPortalXpAdjustmentCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const { amount, notes } = c.req.valid('json');
    const data = await adjustXp(c.get('services'), { userId: c.req.valid('param').userId, amount, notes });
    return c.json({ success: true as const, data }, 201);
  });
}
