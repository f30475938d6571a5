import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import type { Config } from '../../config';
import { errorResponses, okResponse } from '../openapi';
import { cmsConfigSchema, type CmsConfigView } from '../../schemas/cms-config';

/** What the CMS asks its provider for: the subject, a name to show and the email accounts are matched by. */
const CMS_SCOPE = 'openid profile email';

const route = createRoute({
  method: 'get',
  path: '/system/cms-config',
  operationId: 'getCmsConfig',
  tags: ['Platform'],
  summary: 'How the CMS signs people in: its OpenID provider and client id, or null (no token)',
  responses: { 200: okResponse(cmsConfigSchema, 'The CMS configuration'), ...errorResponses() },
});

/** The schema guarantees both or neither (src/config.ts). */
function cmsConfigOf(config: Config): CmsConfigView {
  const { CMS_OIDC_ISSUER: issuer, CMS_OIDC_CLIENT_ID: clientId } = config;
  return { oidc: issuer !== undefined && clientId !== undefined ? { issuer, client_id: clientId, scope: CMS_SCOPE } : null };
}

export function registerSystemCmsConfig(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, (c) => {
    // Vars change with a deploy, which the CMS must see at its next load: never cached.
    c.header('Cache-Control', 'no-store');
    return c.json({ success: true as const, data: cmsConfigOf(c.get('config')) }, 200);
  });
}
