import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { onchainAssetSchema } from '../../schemas/internal-transaction';
import { updateOnchainAssetBodySchema } from '../../schemas/onchain-asset';
import { updateOnchainAsset } from '../../services/onchain-assets';
import { onchainAssetParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'patch',
  path: '/onchain-assets/{id}',
  operationId: 'updateOnchainAsset',
  tags: ['Onchain assets'],
  summary: 'Update an onchain asset',
  description:
    'Partial update of `name`, `symbol`, `metadata` (these are labels: the contract itself is not changed) and `status`. Status moves only between `active` and `inactive` (an inactive asset is neither delivered by rewards nor mirrored); any other move, or moving a `deploying` or `failed` asset, is 409 `INVALID_STATUS_TRANSITION`; 409 `CONFLICT` when the status changed meanwhile (e.g. the deployment completed). 422: unknown field, empty body or invalid value. 403: admins only. 404: no such asset in this tenant.',
  security: portalSecurity,
  request: { params: onchainAssetParams, body: jsonBody(updateOnchainAssetBodySchema) },
  responses: {
    200: okResponse(onchainAssetSchema, 'The updated asset'),
    ...errorResponses(401, 403, 404, 409, 413, 422),
  },
});

export function registerOnchainAssetsUpdate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_onchain_assets');
    const data = await updateOnchainAsset(c.get('services'), c.req.valid('param').id, c.req.valid('json'));
    return c.json({ success: true as const, data }, 200);
  });
}
