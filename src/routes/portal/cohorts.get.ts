import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { cohortSchema, recomputingResponseHeaders } from '../../schemas/cohort';
import { getCohort } from '../../services/cohorts';
import { cohortParams } from './params';
import { recomputableData } from './recomputing';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/cohorts/{cohortId}',
  operationId: 'getCohort',
  tags: ['Cohorts'],
  summary: 'Get a cohort with its exact member count and dead keys',
  security: portalSecurity,
  request: { params: cohortParams },
  responses: {
    200: { ...okResponse(cohortSchema, 'The cohort'), headers: recomputingResponseHeaders },
    ...errorResponses(401, 404),
  },
});

export function registerCohortsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = recomputableData(c, await getCohort(c.get('services'), c.req.valid('param').cohortId));
    return c.json({ success: true as const, data }, 200);
  });
}
