import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, okResponse } from '../openapi';
import { apiKeySchema } from '../../schemas/api-key';
import { revokeApiKey } from '../../services/api-keys';
import { apiKeyParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/api-keys/{id}/revoke',
  operationId: 'revokeApiKey',
  tags: ['API keys'],
  summary: 'Revoke an API key, immediately and for good',
  description:
    'The very next gateway request with the key fails (401), at every location. Revoking a revoked key answers the record unchanged. Rotation: create the replacement, switch the backend to it, then revoke the old key.',
  security: portalSecurity,
  request: {
    params: apiKeyParams,
  },
  responses: {
    200: okResponse(apiKeySchema, 'The key, now revoked'),
    ...errorResponses(401, 403, 404),
  },
});

export function registerApiKeysRevoke(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_api_keys');
    const data = await revokeApiKey(c.get('services'), c.req.valid('param').id, c.env.KV);
    return c.json({ success: true as const, data }, 200);
  });
}
