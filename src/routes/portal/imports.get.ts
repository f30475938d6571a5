import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { importJobSchema } from '../../schemas/import';
import { getImport } from '../../services/imports';
import { errorResponses, okResponse } from '../openapi';
import { importParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/imports/{importId}',
  operationId: 'getImport',
  tags: ['Imports'],
  summary: 'Get an import: its status, counts and first row errors',
  description: 'Admin and up.',
  security: portalSecurity,
  request: { params: importParams },
  responses: {
    200: okResponse(importJobSchema, 'The import job'),
    ...errorResponses(403, 404, 422),
  },
});

export function registerImportsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'run_imports_exports');
    const data = await getImport(c.get('services'), c.req.valid('param').importId);
    return c.json({ success: true as const, data }, 200);
  });
}
