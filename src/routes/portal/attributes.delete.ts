import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, okResponse } from '../openapi';
import { deleteAttributeDefinition } from '../../services/attributes';
import { attributeParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/attributes/{attributeId}',
  operationId: 'deleteAttribute',
  tags: ['Attributes'],
  summary: 'Delete an attribute definition and every value of it',
  description: 'Cohorts that name the key keep their rules; the key then shows in their `dead_keys` and never matches. Editor role and up.',
  security: portalSecurity,
  request: { params: attributeParams },
  responses: {
    200: okResponse(successFlagSchema, 'Deleted'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerAttributesDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await deleteAttributeDefinition(c.get('services'), c.req.valid('param').attributeId);
    return c.json({ success: true as const, data }, 200);
  });
}
