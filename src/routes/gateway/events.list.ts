import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GatewayEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { eventListQuery, eventSchema } from '../../schemas/event';
import { listEvents } from '../../services/event-reads';
import { gatewaySecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/events',
  operationId: 'gatewayListEvents',
  tags: ['Gateway'],
  summary: 'List reported events (newest first) with their effects',
  security: gatewaySecurity,
  request: { query: eventListQuery },
  responses: {
    200: okResponse(pageSchema(eventSchema), 'A page of events'),
    ...errorResponses(401, 422),
  },
});

export function registerGatewayEventsList(app: OpenAPIHono<GatewayEnv>) {
  app.openapi(route, async (c) => {
    const data = await listEvents(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
