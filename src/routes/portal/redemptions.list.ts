import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { redemptionListQuery, redemptionSchema } from '../../schemas/redemption';
import { listRedemptions } from '../../services/redemptions';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/redemptions',
  operationId: 'listRedemptions',
  tags: ['Redemptions'],
  summary: 'List redemptions (newest first)',
  description: 'Optional exact filters: `status`, `user_id`, `reward_id`.',
  security: portalSecurity,
  request: { params: tenantParams, query: redemptionListQuery },
  responses: {
    200: okResponse(pageSchema(redemptionSchema), 'A page of redemptions'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerRedemptionsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listRedemptions(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
