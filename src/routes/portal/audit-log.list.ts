import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { pageSchema } from '../../lib/paging';
import { auditEntrySchema, auditLogQuery } from '../../schemas/audit-log';
import { listAuditLog } from '../../services/audit-log';
import { errorResponses, okResponse } from '../openapi';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/audit-log',
  operationId: 'listAuditLog',
  tags: ['Audit log'],
  summary: 'List the audit log (newest first): who changed what, with before and after values',
  description:
    'Every successful portal write and every gateway customer or attribute write, recorded in the same D1 transaction as the change. Filters narrow by actor, action (operationId), target and time [from, to). Entries are kept 400 days; no route changes or deletes one. Admins.',
  security: portalSecurity,
  request: { params: tenantParams, query: auditLogQuery },
  responses: {
    200: okResponse(pageSchema(auditEntrySchema), 'A page of audit entries'),
    ...errorResponses(401, 403, 404, 422),
  },
});

export function registerAuditLogList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'read_audit_log');
    const data = await listAuditLog(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
