import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { onchainAssetSchema } from '../../schemas/internal-transaction';
import { getOnchainAsset } from '../../services/onchain-assets';
import { onchainAssetParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/onchain-assets/{id}',
  operationId: 'getOnchainAsset',
  tags: ['Onchain assets'],
  summary: 'Get an onchain asset',
  description:
    'Every member may read. `status`: `deploying` (the platform\'s deploy transaction is on its way: `deploy_tx_hash` once signed, no `asset_address` yet), `active`, `inactive` (neither delivered nor mirrored), `failed` (the deployment failed). `total_owners` and `total_txns` come from the indexer. 404: no such asset in this tenant.',
  security: portalSecurity,
  request: { params: onchainAssetParams },
  responses: {
    200: okResponse(onchainAssetSchema, 'The onchain asset'),
    ...errorResponses(401, 404),
  },
});

export function registerOnchainAssetsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getOnchainAsset(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data }, 200);
  });
}
