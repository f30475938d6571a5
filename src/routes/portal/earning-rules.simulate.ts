import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { simulateBodySchema, simulationSchema } from '../../schemas/event';
import { simulateEvent } from '../../services/events';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/earning-rules/simulate',
  operationId: 'simulateEarningRules',
  tags: ['Earning rules'],
  summary: 'Test an event against the rules, writing nothing',
  description:
    "Evaluates every earning rule of the event's type for the customer as a real event would be evaluated now (the same SQL, the customer's current tier, cohorts and counters) and explains each: applied with its amount, or why not (`inactive`, `outside_window`, `conditions`, `no_xp`, `capped`, `stopped_by:<rule_id>`). Writes nothing. Editor role and up.",
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(simulateBodySchema) },
  responses: {
    200: okResponse(simulationSchema, 'Every rule of the type, highest priority first'),
    ...errorResponses(401, 403, 404, 409, 413, 422),
  },
});

export function registerEarningRulesSimulate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'edit_program');
    const body = c.req.valid('json');
    const data = await simulateEvent(c.get('services'), { userId: body.user_id, type: body.type, occurredAt: body.occurred_at, properties: body.properties });
    return c.json({ success: true as const, data }, 200);
  });
}
