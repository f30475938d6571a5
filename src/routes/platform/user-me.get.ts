import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AccountEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { currentAccountSchema } from '../../schemas/account';
import { getCurrentAccount } from '../../services/accounts';
import { portalSecurity } from '../portal/security';
import { requestContext } from '../../middleware/services';

const route = createRoute({
  method: 'get',
  path: '/user/me',
  operationId: 'getCurrentUser',
  tags: ['Platform'],
  summary: 'The signed-in account and its tenant memberships (created on first sign-in)',
  security: portalSecurity,
  responses: {
    200: okResponse(currentAccountSchema, 'The signed-in account'),
    ...errorResponses(401),
  },
});

export function registerUserMe(app: OpenAPIHono<AccountEnv>) {
  app.openapi(route, async (c) => {
    const data = await getCurrentAccount(requestContext(c), c.get('account'));
    return c.json({ success: true as const, data }, 200);
  });
}
