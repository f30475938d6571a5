import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { idempotencyHeaders, replayedResponseHeaders } from '../../schemas/idempotency';
import { reversalSchema, reverseCreditBodySchema } from '../../schemas/reversal';
import { reverseCredit } from '../../services/reversals';
import { internalTransactionParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/internal-transactions/{internal_transaction_id}/reverse',
  operationId: 'gatewayReverseInternalTransaction',
  tags: ['Gateway'],
  summary: 'Take back a credit (a return)',
  description:
    'Reverses an earn, bonus or positive adjustment, in whole (no `amount`: what is left of it) or in part (docs/POINTS.md). ' +
    'A pending credit is canceled (its transaction `failed`, its lot `reversed`), or, in part, a `pending` `xp_reversal` completes with it. ' +
    'An active credit gets an `xp_reversal` taking its lot’s remaining, then the customer’s other active points, never below zero: what was already spent is `unrecovered`. ' +
    'The reversals of a credit add up to at most its amount (409 REVERSAL_EXCEEDS_CREDIT); a debit is 409 NOT_REVERSIBLE; a credit whose mint is under way 409 CREDIT_SETTLING.',
  security: gatewaySecurity,
  request: { headers: idempotencyHeaders, params: internalTransactionParams, body: jsonBody(reverseCreditBodySchema) },
  responses: {
    201: { ...okResponse(reversalSchema, 'What was taken back'), headers: replayedResponseHeaders },
    ...errorResponses(400, 401, 404, 409, 413, 422),
  },
});

export function registerGatewayInternalTransactionReverse(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await reverseCredit(c.get('services'), c.req.valid('param').internal_transaction_id, c.req.valid('json'));
    return c.json({ success: true as const, data }, 201);
  });
}
