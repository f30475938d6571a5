import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { reconciliationSchema } from '../../schemas/onchain-asset';
import { reconcileOnchainAsset } from '../../services/reconciliation';
import { onchainAssetParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/onchain-assets/{id}/reconciliation',
  operationId: 'getOnchainAssetReconciliation',
  tags: ['Onchain assets'],
  summary: 'Reconcile an asset: settled ledger vs indexed chain',
  description: [
    'Every member may read. All amounts are base units as decimal strings.',
    'Ledger side: for the XP token (`key` `xp`), each customer\'s settled XP x 10^decimals: every completed entry, mirrored onto the token or earned before it (the token\'s opening mints that), while pending debits and unsettled credits are not counted; for any other asset, what the platform\'s succeeded mints minus succeeded burns sent to each wallet.',
    'Onchain side: the indexed balances of the platform\'s wallets, as of `last_indexed_block` (the indexer cursor); a settlement newer than that shows as a difference until the indexer catches up.',
    '`difference` = onchain - ledger; `customers` lists only those whose two sides differ. 404: no such asset in this tenant.',
    'Supply: `total_supply` (an erc20\'s `totalSupply()`, or the indexed mints minus burns) against `ledger_total`, so tokens minted outside the platform, to any address, show as `supply_difference`.',
  ].join('\n\n'),
  security: portalSecurity,
  request: { params: onchainAssetParams },
  responses: {
    200: okResponse(reconciliationSchema, 'The reconciliation'),
    ...errorResponses(401, 404),
  },
});

export function registerOnchainAssetsReconciliation(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await reconcileOnchainAsset(c.get('services'), c.req.valid('param').id);
    return c.json({ success: true as const, data }, 200);
  });
}
