import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageQuery, pageSchema } from '../../lib/paging';
import { cohortSchema, recomputingResponseHeaders } from '../../schemas/cohort';
import { listCohorts } from '../../services/cohorts';
import { tenantParams } from './params';
import { recomputableData } from './recomputing';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/cohorts',
  operationId: 'listCohorts',
  tags: ['Cohorts'],
  summary: 'List cohorts (newest first) with exact member counts and dead keys',
  security: portalSecurity,
  request: { params: tenantParams, query: pageQuery },
  responses: {
    200: { ...okResponse(pageSchema(cohortSchema), 'A page of cohorts'), headers: recomputingResponseHeaders },
    ...errorResponses(401, 404, 422),
  },
});

export function registerCohortsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = recomputableData(c, await listCohorts(c.get('services'), c.req.valid('query')));
    return c.json({ success: true as const, data }, 200);
  });
}
