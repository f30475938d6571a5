import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { recomputingResponseHeaders } from '../../schemas/cohort';
import { customerSchema } from '../../schemas/customer';
import { listCohortMembers } from '../../services/cohorts';
import { cohortParams } from './params';
import { recomputableData } from './recomputing';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/cohorts/{cohortId}/members',
  operationId: 'listCohortMembers',
  tags: ['Cohorts'],
  summary: "The cohort's members: customers matching its rules now (newest first)",
  security: portalSecurity,
  request: { params: cohortParams, query: pageQuery },
  responses: {
    200: { ...okResponse(pageSchema(customerSchema), 'A page of customers'), headers: recomputingResponseHeaders },
    ...errorResponses(401, 404, 422),
  },
});

export function registerCohortMembersList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = recomputableData(c, await listCohortMembers(c.get('services'), c.req.valid('param').cohortId, c.req.valid('query')));
    return c.json({ success: true as const, data }, 200);
  });
}
