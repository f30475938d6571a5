import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { MAX_ACTIVE_API_KEYS } from '../../domain/api-keys';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { createApiKeyBodySchema, createdApiKeySchema } from '../../schemas/api-key';
import { createApiKey } from '../../services/api-keys';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/api-keys',
  operationId: 'createApiKey',
  tags: ['API keys'],
  summary: 'Create an API key for the gateway',
  description: `Answers the record plus \`secret\`, the HMAC signing secret, this once: no read returns it again. A lost secret is replaced (create another key, then revoke this one), not recovered. A tenant holds at most ${MAX_ACTIVE_API_KEYS} active keys (revoked and expired ones do not count): one more is 409 CONFLICT, revoke one first.`,
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createApiKeyBodySchema) },
  responses: {
    201: okResponse(createdApiKeySchema, 'The new key with its secret'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422),
  },
});

export function registerApiKeysCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { account, role } = c.get('portalAuth');
    assertCan(role, 'manage_api_keys');
    const body = c.req.valid('json');
    const input = { name: body.name, label: body.label, expiresAt: body.expires_at, createdBy: account.id };
    const { record, secret } = await createApiKey(c.get('services'), input, { kv: c.env.KV, encryptionKey: c.get('config').API_KEY_ENCRYPTION_KEY });
    return c.json({ success: true as const, data: { ...record, secret } }, 201);
  });
}
