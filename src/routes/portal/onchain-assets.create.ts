import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { assertCan } from '../../domain/permissions';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { onchainAssetSchema } from '../../schemas/internal-transaction';
import { createOnchainAssetBodySchema } from '../../schemas/onchain-asset';
import { createOnchainAsset } from '../../services/onchain-assets';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'post',
  path: '/onchain-assets',
  operationId: 'createOnchainAsset',
  tags: ['Onchain assets'],
  summary: 'Register or deploy an onchain asset',
  description: [
    '**Register** an existing contract (body with `asset_address`): the asset is `active` at once. The contract must give the platform relayer the reference calls (`mint`/`burn` for erc20, `mint(to)` for erc721, `mint(to, id, amount)` for erc1155; see docs/ONCHAIN.md).',
    '**Deploy** the platform\'s reference contract (no `asset_address`): the asset is `deploying`, its deployment is queued for settlement, `deploy_tx_hash` is set once signed, and it turns `active` with `asset_address` and `deployed_at` when the receipt lands (`failed` if it reverts).',
    'The asset whose `key` is `xp` is the tenant\'s XP token (must be erc20): completed XP entries are mirrored onto it as `amount x 10^decimals`.',
    'Errors: 422 `VALIDATION_FAILED` at the field: `type` not erc20/erc721/erc1155; `decimals` missing or outside 0-36 for erc20, non-zero for erc721/erc1155; `key` not lowercase letters/digits/underscores or `xp` on a non-erc20; `chain_id` not in CHAINS (the message lists the configured chain ids) or its RPC unreachable (the chain is named, never its address); `asset_address` not a valid address, or no contract code at it; `decimals` differing from the contract\'s own `decimals()`.',
    '409 `CONFLICT`: `key` already used in this tenant; the same contract already registered on that chain; a contract another tenant of the platform registered or had deployed (a contract belongs to one tenant, for good: it is not said which); (deploy) the tenant has made as many platform deploys as allowed (`TENANT_DEPLOY_LIMIT`). 429 ONCHAIN_BUDGET_EXHAUSTED (with `Retry-After`): (deploy) and the tenant\'s daily gas budget is used up; nothing is written, off-chain work goes on. 503 `SERVICE_MISCONFIGURED`: `CHAINS` is malformed, or (deploy) `RELAYER_PRIVATE_KEY` is missing or invalid. 403: admins only.',
  ].join('\n\n'),
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(createOnchainAssetBodySchema) },
  responses: {
    201: okResponse(onchainAssetSchema, 'The new asset (`active` when registered, `deploying` when deployed)'),
    ...errorResponses(401, 403, 404, 409, 413, 422, 503),
  },
});

export function registerOnchainAssetsCreate(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const { role } = c.get('portalAuth');
    assertCan(role, 'manage_onchain_assets');
    const data = await createOnchainAsset(c.get('services'), c.req.valid('json'));
    return c.json({ success: true as const, data }, 201);
  });
}
