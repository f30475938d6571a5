import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { cohortSchema, updateCohortBodySchema, recomputingResponseHeaders } from '../../schemas/cohort';
import { updateCohort } from '../../services/cohorts';
import { cohortParams } from './params';
import { recomputableData } from './recomputing';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'patch',
  path: '/cohorts/{cohortId}',
  operationId: 'updateCohort',
  tags: ['Cohorts'],
  summary: 'Update a cohort',
  description: `The fields sent replace the stored ones (\`rules\` as a whole); at least one is required. Editor role and up.`,
  security: portalSecurity,
  request: { params: cohortParams, body: jsonBody(updateCohortBodySchema) },
  responses: {
    200: { ...okResponse(cohortSchema, 'The updated cohort'), headers: recomputingResponseHeaders },
    ...errorResponses(401, 403, 404, 413, 422),
  },
});

export function registerCohortsUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = recomputableData(c, await updateCohort(c.get('services'), c.req.valid('param').cohortId, c.req.valid('json')));
    return c.json({ success: true as const, data }, 200);
  });
}
