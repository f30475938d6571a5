import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, okResponse } from '../openapi';
import { deleteCohort } from '../../services/cohorts';
import { cohortParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/cohorts/{cohortId}',
  operationId: 'deleteCohort',
  tags: ['Cohorts'],
  summary: 'Delete a cohort',
  description: 'Removes only the saved rule; customers keep their attribute values and other memberships. Editor role and up.',
  security: portalSecurity,
  request: { params: cohortParams },
  responses: {
    200: okResponse(successFlagSchema, 'Deleted'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerCohortsDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await deleteCohort(c.get('services'), c.req.valid('param').cohortId);
    return c.json({ success: true as const, data }, 200);
  });
}
