import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { createExportBodySchema, exportJobSchema } from '../../schemas/export';
import { requestExport } from '../../services/exports';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/exports',
  operationId: 'createExport',
  tags: ['Exports'],
  summary: 'Request a CSV export (customers, the ledger, or a cohort\'s members)',
  description:
    'Answers 202 with the job `queued`; the operations queue writes the CSV into R2 page by page (never whole in memory). Poll `GET /exports/{exportId}`: once `completed` it carries a signed `download_url` valid one hour. `cohort_id` is required for `cohort_members` (404 for an unknown cohort); `from`/`to` (inclusive, `created_at`) apply to `customers` and `internal_transactions`. Files are kept 7 days. Admin and up.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createExportBodySchema) },
  responses: {
    202: okResponse(exportJobSchema, 'The export, queued'),
    ...errorResponses(401, 403, 404, 413, 415, 422),
  },
});

export function registerExportsCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role, account } = c.get('portalAuth');
    assertCan(role, 'run_imports_exports');
    const data = await requestExport(c.get('services'), c.req.valid('json'), { createdBy: account.id, queue: c.env.OPERATIONS_QUEUE });
    return c.json({ success: true as const, data }, 202);
  });
}
