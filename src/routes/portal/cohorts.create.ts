import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { cohortSchema, createCohortBodySchema, recomputingResponseHeaders } from '../../schemas/cohort';
import { createCohort } from '../../services/cohorts';
import { tenantParams } from './params';
import { recomputableData } from './recomputing';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/cohorts',
  operationId: 'createCohort',
  tags: ['Cohorts'],
  summary: 'Create a cohort (a saved rule over customers)',
  description: 'The rules are checked against the current attribute definitions and tiers. Editor role and up.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createCohortBodySchema) },
  responses: {
    201: { ...okResponse(cohortSchema, 'The new cohort with its member count'), headers: recomputingResponseHeaders },
    ...errorResponses(401, 403, 404, 413, 422),
  },
});

export function registerCohortsCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { account, role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = recomputableData(c, await createCohort(c.get('services'), { ...c.req.valid('json'), createdBy: account.id }));
    return c.json({ success: true as const, data }, 201);
  });
}
