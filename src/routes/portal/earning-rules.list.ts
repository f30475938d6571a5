import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { earningRuleListQuery, earningRuleSchema } from '../../schemas/earning-rule';
import { listEarningRules } from '../../services/earning-rules';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/earning-rules',
  operationId: 'listEarningRules',
  tags: ['Earning rules'],
  summary: 'List earning rules (newest first), optionally of one status and event type',
  description:
    'The list is newest first; an event evaluates the active rules of its type in another order: highest `priority` first, then the oldest (`created_at`), then by `id`.',
  security: portalSecurity,
  request: { params: tenantParams, query: earningRuleListQuery },
  responses: {
    200: okResponse(pageSchema(earningRuleSchema), 'A page of earning rules'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerEarningRulesList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listEarningRules(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
