import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { pageQuery, pageSchema } from '../../lib/paging';
import { importJobSchema } from '../../schemas/import';
import { listImports } from '../../services/imports';
import { errorResponses, okResponse } from '../openapi';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/imports',
  operationId: 'listImports',
  tags: ['Imports'],
  summary: 'List the imports of the tenant (newest first)',
  description: 'Each job with its counts and first row errors. Admin and up.',
  security: portalSecurity,
  request: { params: tenantParams, query: pageQuery },
  responses: {
    200: okResponse(pageSchema(importJobSchema), 'A page of import jobs'),
    ...errorResponses(403, 404, 422),
  },
});

export function registerImportsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'run_imports_exports');
    const data = await listImports(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
