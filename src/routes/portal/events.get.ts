import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { eventSchema } from '../../schemas/event';
import { getEvent } from '../../services/event-reads';
import { eventParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/events/{id}',
  operationId: 'getEvent',
  tags: ['Events'],
  summary: 'Get an event with its effects (in evaluation order)',
  security: portalSecurity,
  request: { params: eventParams },
  responses: {
    200: okResponse(eventSchema, 'The event'),
    ...errorResponses(401, 404),
  },
});

export function registerEventsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getEvent(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data }, 200);
  });
}
