import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { responseWithWrite } from '../../middleware/idempotency';
import { idempotencyHeaders, replayedResponseHeaders } from '../../schemas/idempotency';
import { internalTransactionSchema } from '../../schemas/internal-transaction';
import { earnXpBodySchema } from '../../schemas/xp';
import { earnXp } from '../../services/ledger';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/xp',
  operationId: 'gatewayEarnXp',
  tags: ['Gateway'],
  summary: 'Credit earned or bonus XP to a customer',
  description: 'Appends an `xp_earn` or `xp_bonus` transaction. Off-chain it is `completed` at once and moves the balance with it. When the tenant has an XP token (onchain asset with key `xp`) it is `initialized`, a mint is settled onchain, and the credit counts in `xp_balance`/`lifetime_xp` once it is `completed` (`failed` changes nothing). Only an active or reinstated customer earns (409 CUSTOMER_NOT_ACTIVE otherwise). 429 ONCHAIN_BUDGET_EXHAUSTED (with `Retry-After`): the write would settle onchain and the tenant\'s daily gas budget is used up; nothing is written, off-chain work goes on.',
  security: gatewaySecurity,
  request: { headers: idempotencyHeaders, body: jsonBody(earnXpBodySchema) },
  responses: {
    201: { ...okResponse(internalTransactionSchema, 'The new internal transaction'), headers: replayedResponseHeaders },
    ...errorResponses(400, 401, 404, 409, 413, 422),
  },
});

export function registerGatewayXpCreate(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const input = { userId: body.user_id, type: body.type, amount: body.amount, notes: body.notes, metadata: body.metadata };
    const data = await earnXp(c.get('services'), input, responseWithWrite(c, 201));
    return c.json({ success: true as const, data }, 201);
  });
}
