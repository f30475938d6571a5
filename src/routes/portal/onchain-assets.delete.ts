import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { successFlagSchema } from '../../lib/envelope';
import { errorResponses, okResponse } from '../openapi';
import { deleteOnchainAsset } from '../../services/onchain-assets';
import { onchainAssetParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'delete',
  path: '/onchain-assets/{id}',
  operationId: 'deleteOnchainAsset',
  tags: ['Onchain assets'],
  summary: 'Delete an onchain asset',
  description:
    'Removes the asset from the platform (its indexed balances with it); the contract stays on the chain. 409 `CONFLICT` while a reward delivers it or anything on it is still settling: an onchain operation (deployment, mint, burn) waiting, queued or submitted, or an internal transaction initialized or pending; set it `inactive` instead, or retry once settled. 403: admins only. 404: no such asset in this tenant.',
  security: portalSecurity,
  request: { params: onchainAssetParams },
  responses: {
    200: okResponse(successFlagSchema, 'The asset was deleted'),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerOnchainAssetsDelete(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_onchain_assets');
    await deleteOnchainAsset(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data: { success: true as const } }, 200);
  });
}
