import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { inviteMemberBodySchema, memberSchema } from '../../schemas/member';
import { inviteMember } from '../../services/members';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/members',
  operationId: 'inviteMember',
  tags: ['Members'],
  summary: 'Invite a person by email',
  description:
    'A person whose account holds this email, verified by the identity provider (`email_verified`), is linked at once (`active`); otherwise the membership is `invited` until someone signs in with that email verified. Emails are compared trimmed and lowercased. Only a super_admin may grant `super_admin`.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(inviteMemberBodySchema) },
  responses: {
    201: okResponse(memberSchema, 'The new membership'),
    ...errorResponses(401, 403, 404, 409, 422),
  },
});

export function registerMembersCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { account, role } = c.get('portalAuth');
    assertCan(role, 'manage_members');
    const data = await inviteMember(c.get('services'), { actor: { accountId: account.id, role }, ...c.req.valid('json') });
    return c.json({ success: true as const, data }, 201);
  });
}
