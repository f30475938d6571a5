import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { createTierBodySchema, tierRuleSchema } from '../../schemas/tier';
import { createTier } from '../../services/tiers';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/tiers',
  operationId: 'createTier',
  tags: ['Tiers'],
  summary: 'Create a tier rule',
  description: '`tier_name` is unique in the tenant (409). `benefits_description`, `color` and `icon` default to "". Editor and up.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createTierBodySchema) },
  responses: {
    201: okResponse(tierRuleSchema, 'The new tier rule'),
    ...errorResponses(401, 403, 404, 409, 422),
  },
});

export function registerTiersCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await createTier(c.get('services'), c.req.valid('json'));
    return c.json({ success: true as const, data }, 201);
  });
}
