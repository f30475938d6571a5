import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { eventSchema } from '../../schemas/event';
import { getEvent } from '../../services/event-reads';
import { eventParams } from './params';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/events/{id}',
  operationId: 'gatewayGetEvent',
  tags: ['Gateway'],
  summary: 'Get a reported event with its effects (in evaluation order)',
  security: gatewaySecurity,
  request: { params: eventParams },
  responses: {
    200: okResponse(eventSchema, 'The event'),
    ...errorResponses(401, 404),
  },
});

export function registerGatewayEventGet(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await getEvent(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data }, 200);
  });
}
