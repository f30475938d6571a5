import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { removeMember } from '../../services/members';
import { memberParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/members/{userId}',
  operationId: 'removeMember',
  tags: ['Members'],
  summary: 'Remove a member (or withdraw an invitation)',
  description:
    'Checked in this order: caller may not manage members 403, no such member 404, own account 400, last super_admin 400, an admin removing a super_admin 403. The person loses access at once.',
  security: portalSecurity,
  request: { params: memberParams },
  responses: {
    200: okResponse(z.null(), 'Removed (`data` is null)'),
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerMembersDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { account, role } = c.get('portalAuth');
    assertCan(role, 'manage_members');
    await removeMember(c.get('services'), { actor: { accountId: account.id, role }, userId: c.req.valid('param').userId });
    return c.json({ success: true as const, data: null }, 200);
  });
}
