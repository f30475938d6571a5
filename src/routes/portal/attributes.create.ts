import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { attributeCreatedSchema, createAttributeBodySchema } from '../../schemas/attribute';
import { createAttributeDefinition } from '../../services/attributes';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/attributes',
  operationId: 'createAttribute',
  tags: ['Attributes'],
  summary: 'Define a customer attribute',
  description:
    'Types: string, number, boolean, date, datetime, string_list (anything else 422). A key in another case or with spaces is normalized to lowercase snake case and answered with a `warning`; so is a key that saved cohorts already name. 409 when the key is already defined. Editor role and up.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createAttributeBodySchema) },
  responses: {
    201: okResponse(attributeCreatedSchema, 'The new definition id, and a warning when accepted with a caveat'),
    ...errorResponses(401, 403, 404, 409, 413, 422),
  },
});

export function registerAttributesCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'edit_program');
    const data = await createAttributeDefinition(c.get('services'), c.req.valid('json'));
    return c.json({ success: true as const, data }, 201);
  });
}
