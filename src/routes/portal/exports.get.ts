import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { exportJobSchema } from '../../schemas/export';
import { getExport } from '../../services/exports';
import { errorResponses, okResponse } from '../openapi';
import { downloadLinkSettings } from '../platform/files.get';
import { exportParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/exports/{exportId}',
  operationId: 'getExport',
  tags: ['Exports'],
  summary: 'Get an export',
  description: 'Once `completed`, each read issues a fresh signed `download_url`, valid one hour (`expires_at`). Admin and up.',
  security: portalSecurity,
  request: { params: exportParams },
  responses: {
    200: okResponse(exportJobSchema, 'The export'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerExportsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'run_imports_exports');
    const data = await getExport(c.get('services'), c.req.valid('param').exportId, downloadLinkSettings(c));
    return c.json({ success: true as const, data }, 200);
  });
}
