import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { memberSchema } from '../../schemas/member';
import { listMembers } from '../../services/members';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/members',
  operationId: 'listMembers',
  tags: ['Members'],
  summary: 'List the members and pending invitations of the tenant (newest first)',
  security: portalSecurity,
  request: { params: tenantParams, query: pageQuery },
  responses: {
    200: okResponse(pageSchema(memberSchema), 'A page of members'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerMembersList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listMembers(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
