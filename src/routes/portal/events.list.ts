import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { eventListQuery, eventSchema } from '../../schemas/event';
import { listEvents } from '../../services/event-reads';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/events',
  operationId: 'listEvents',
  tags: ['Events'],
  summary: "List the events the tenant's backend reported (newest first) with their effects",
  security: portalSecurity,
  request: { params: tenantParams, query: eventListQuery },
  responses: {
    200: okResponse(pageSchema(eventSchema), 'A page of events'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerEventsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listEvents(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
