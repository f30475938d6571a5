import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { importErrorFile } from '../../services/imports';
import { errorResponses } from '../openapi';
import { importParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/imports/{importId}/errors',
  operationId: 'getImportErrors',
  tags: ['Imports'],
  summary: "Download every row error of an import as CSV (the job's `errors_url`)",
  description: 'A `row,message` CSV, rows in order; 404 until the import completed with errors, and after the retention period (docs/OPERATIONS.md). Admin and up.',
  security: portalSecurity,
  request: { params: importParams },
  responses: {
    200: { description: 'The error file', content: { 'text/csv': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errorResponses(403, 404, 422),
  },
});

export function registerImportsErrors(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'run_imports_exports');
    const { importId } = c.req.valid('param');
    const file = await importErrorFile(c.get('services'), importId, c.env.FILES);
    return c.body(file, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${importId}-errors.csv"` });
  });
}
