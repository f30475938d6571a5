import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, okResponse } from '../openapi';
import { deleteEarningRule } from '../../services/earning-rules';
import { earningRuleParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/earning-rules/{id}',
  operationId: 'deleteEarningRule',
  tags: ['Earning rules'],
  summary: 'Delete an earning rule',
  description:
    'Past events keep their effects (with the rule id and name). To keep a rule without applying it, set its status to `archived` instead. Editor role and up.',
  security: portalSecurity,
  request: { params: earningRuleParams },
  responses: {
    200: okResponse(successFlagSchema, 'Deleted'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerEarningRulesDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'edit_program');
    const data = await deleteEarningRule(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data }, 200);
  });
}
