import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { pageQuery, pageSchema } from '../../lib/paging';
import { exportJobSchema } from '../../schemas/export';
import { listExports } from '../../services/exports';
import { errorResponses, okResponse } from '../openapi';
import { downloadLinkSettings } from '../platform/files.get';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/exports',
  operationId: 'listExports',
  tags: ['Exports'],
  summary: 'List the exports of the tenant (newest first)',
  description: 'Completed ones carry a fresh signed `download_url` (valid one hour). Admin and up.',
  security: portalSecurity,
  request: { params: tenantParams, query: pageQuery },
  responses: {
    200: okResponse(pageSchema(exportJobSchema), 'A page of exports'),
    ...errorResponses(401, 403, 404, 422),
  },
});

export function registerExportsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'run_imports_exports');
    const data = await listExports(c.get('services'), c.req.valid('query'), downloadLinkSettings(c));
    return c.json({ success: true as const, data }, 200);
  });
}
