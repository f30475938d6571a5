import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import { MAX_ACTIVE_RULES_PER_TYPE } from '../../domain/earning-limits';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { earningRuleSchema, updateEarningRuleBodySchema } from '../../schemas/earning-rule';
import { updateEarningRule } from '../../services/earning-rules';
import { earningRuleParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'patch',
  path: '/earning-rules/{id}',
  operationId: 'updateEarningRule',
  tags: ['Earning rules'],
  summary: 'Update an earning rule',
  description: `The fields sent replace the stored ones (\`conditions\`, \`effect\`, \`multipliers\`, \`limits\` each as a whole); at least one is required. The parts sent are checked as on create; \`starts_at\` and \`ends_at\` against the stored other bound; a rule made active needs a place under the ${MAX_ACTIVE_RULES_PER_TYPE} active rules of its event type. Events evaluated after the change see it; past events keep their effects. Editor role and up.`,
  security: portalSecurity,
  request: { params: earningRuleParams, body: jsonBody(updateEarningRuleBodySchema) },
  responses: {
    200: okResponse(earningRuleSchema, 'The updated earning rule'),
    ...errorResponses(401, 403, 404, 413, 422),
  },
});

export function registerEarningRulesUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'edit_program');
    const data = await updateEarningRule(c.get('services'), c.req.valid('param').id, c.req.valid('json'));
    return c.json({ success: true as const, data }, 200);
  });
}
