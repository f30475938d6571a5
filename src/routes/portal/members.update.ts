import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { changeMemberRoleBodySchema, memberSchema } from '../../schemas/member';
import { changeMemberRole } from '../../services/members';
import { memberParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'patch',
  path: '/members/{userId}',
  operationId: 'updateMember',
  tags: ['Members'],
  summary: "Change a member's role",
  description: 'The tenant keeps at least one super_admin (400); only a super_admin changes or grants `super_admin` (403).',
  security: portalSecurity,
  request: { params: memberParams, body: jsonBody(changeMemberRoleBodySchema) },
  responses: {
    200: okResponse(memberSchema, 'The updated membership'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

export function registerMembersUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { account, role } = c.get('portalAuth');
    assertCan(role, 'manage_members');
    const { userId } = c.req.valid('param');
    const data = await changeMemberRole(c.get('services'), { actor: { accountId: account.id, role }, userId, role: c.req.valid('json').role });
    return c.json({ success: true as const, data }, 200);
  });
}
