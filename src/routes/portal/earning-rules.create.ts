import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import { MAX_ACTIVE_RULES_PER_TYPE, MAX_RULES_PER_TENANT } from '../../domain/earning-limits';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { createEarningRuleBodySchema, earningRuleSchema } from '../../schemas/earning-rule';
import { createEarningRule } from '../../services/earning-rules';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/earning-rules',
  operationId: 'createEarningRule',
  tags: ['Earning rules'],
  summary: 'Create an earning rule',
  description: `Every part is checked against the tenant's attribute definitions, tiers and cohorts (422 at the field). A tenant has at most ${MAX_RULES_PER_TENANT} rules, and at most ${MAX_ACTIVE_RULES_PER_TYPE} active ones per event type (422 at \`status\`). Editor role and up.`,
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createEarningRuleBodySchema) },
  responses: {
    201: okResponse(earningRuleSchema, 'The new earning rule'),
    ...errorResponses(401, 403, 404, 413, 422),
  },
});

export function registerEarningRulesCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'edit_program');
    const data = await createEarningRule(c.get('services'), c.req.valid('json'));
    return c.json({ success: true as const, data }, 201);
  });
}
