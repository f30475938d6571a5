import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { responseWithWrite } from '../../middleware/idempotency';
import { idempotencyHeaders, replayedResponseHeaders } from '../../schemas/idempotency';
import { dryRunQuery, eventDryRunSchema, eventSchema, recordEventBodySchema } from '../../schemas/event';
import { dryRunEvent, recordEvent } from '../../services/events';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/events',
  operationId: 'gatewayRecordEvent',
  tags: ['Gateway'],
  summary: 'Report what happened; the earning rules decide the XP',
  description:
    "Evaluates the tenant's active earning rules of the event's `type` (docs/RULES.md) and writes, in one transaction, the event, one `xp_earn` internal transaction per effect that gives XP (`metadata` `{event_id, rule_id}`, mirrored onchain like any earn), and the rules' counters. Limits and budgets hold under any concurrency; a capped effect shows `capped: true` with the amount that still fit (0: no transaction). " +
    '`?dry_run=true` answers 200 with the effects the event would have now and writes nothing (the idempotency key rules still apply). Unknown customer 404; a customer who may not earn 409 CUSTOMER_NOT_ACTIVE.',
  security: gatewaySecurity,
  request: { headers: idempotencyHeaders, query: dryRunQuery, body: jsonBody(recordEventBodySchema) },
  responses: {
    200: { ...okResponse(eventDryRunSchema, 'A dry run: the effects it would have'), headers: replayedResponseHeaders },
    201: { ...okResponse(eventSchema, 'The event with its effects'), headers: replayedResponseHeaders },
    ...errorResponses(400, 401, 404, 409, 413, 422),
  },
});

export function registerGatewayEventsCreate(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const input = { userId: body.user_id, type: body.type, occurredAt: body.occurred_at, properties: body.properties, reference: body.reference };
    if (c.req.valid('query').dry_run === 'true') {
      return c.json({ success: true as const, data: await dryRunEvent(c.get('services'), input) }, 200);
    }
    const data = await recordEvent(c.get('services'), input, responseWithWrite(c, 201));
    return c.json({ success: true as const, data }, 201);
  });
}
