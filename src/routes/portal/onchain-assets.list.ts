import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { pageSchema } from '../../lib/paging';
import { onchainAssetSchema } from '../../schemas/internal-transaction';
import { onchainAssetListQuery } from '../../schemas/onchain-asset';
import { listOnchainAssets } from '../../services/onchain-assets';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/onchain-assets',
  operationId: 'listOnchainAssets',
  tags: ['Onchain assets'],
  summary: 'List onchain assets (newest first)',
  description:
    'Every member may read. Optional filters `type` (erc20, erc721, erc1155), `chain_id` and `key` (exact). An asset being deployed has `status: deploying` and no `asset_address` yet. 422: a filter or paging value out of range.',
  security: portalSecurity,
  request: { params: tenantParams, query: onchainAssetListQuery },
  responses: {
    200: okResponse(pageSchema(onchainAssetSchema), 'A page of onchain assets'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerOnchainAssetsList(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await listOnchainAssets(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
