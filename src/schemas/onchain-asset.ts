import { z } from '@hono/zod-openapi';
import { onchainAssetStatuses, onchainAssetTypes } from '../db/schema';
import { ASSET_KEY_PATTERN, MAX_ASSET_DECIMALS, MAX_CHAIN_ID, assetShapeViolations } from '../domain/onchain-assets';
import { pageQuery, queryInteger } from '../lib/paging';
import { freeFormJson, trimmedText } from './common';

const baseUnits = z.string().regex(/^-?\d+$/).openapi({ description: 'Base units as a decimal string (may exceed 2^53)', example: '1500000000000000000' });

const fields = {
  type: z.enum(onchainAssetTypes),
  chain_id: z.int().min(1).max(MAX_CHAIN_ID).openapi({ description: 'A chain id configured in CHAINS', example: 31337 }),
  key: z.string().regex(ASSET_KEY_PATTERN, 'Lowercase letters, digits and underscores, 1-64 characters').openapi({
    description: 'Unique per tenant; `xp` makes this the tenant\'s XP token (must then be erc20)',
    example: 'xp',
  }),
  name: trimmedText(100).openapi({ example: 'Loyalty Points' }),
  symbol: trimmedText(32).openapi({ example: 'LOY' }),
  decimals: z.int().min(0).max(MAX_ASSET_DECIMALS).openapi({ description: `erc20: required, 0-${MAX_ASSET_DECIMALS}; erc721/erc1155: omit (or 0)` }),
  asset_address: z.string().openapi({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'Registers this existing contract (mixed case must be a valid EIP-55 checksum); omit it to have the platform deploy its reference contract',
    example: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  }),
  metadata: freeFormJson.openapi({ example: { image: 'https://example.com/xp.png' } }),
};

/**
 * Register (with `asset_address`) or deploy (without). Shapes per field, then the rules between
 * fields (domain/onchain-assets.ts), each reported at its own path.
 */
export const createOnchainAssetBodySchema = z
  .strictObject({
    type: fields.type,
    chain_id: fields.chain_id,
    key: fields.key.optional(),
    name: fields.name,
    symbol: fields.symbol,
    decimals: fields.decimals.optional(),
    asset_address: fields.asset_address.optional(),
    metadata: fields.metadata.optional(),
  })
  .superRefine((body, ctx) => {
    for (const { path, message } of assetShapeViolations(body)) ctx.addIssue({ code: 'custom', path: [path], message });
  })
  .openapi('CreateOnchainAssetBody');

/** PATCH: only the fields sent change. `status` moves only between active and inactive (else 409). */
export const updateOnchainAssetBodySchema = z
  .strictObject({
    name: fields.name,
    symbol: fields.symbol,
    metadata: fields.metadata,
    status: z.enum(onchainAssetStatuses).openapi({ description: 'active <-> inactive only' }),
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change')
  .openapi('UpdateOnchainAssetBody', { minProperties: 1 });

export type CreateOnchainAssetInput = z.infer<typeof createOnchainAssetBodySchema>;
export type UpdateOnchainAssetInput = z.infer<typeof updateOnchainAssetBodySchema>;

export const onchainAssetListQuery = pageQuery.extend({
  type: z.enum(onchainAssetTypes).optional(),
  chain_id: queryInteger(1, MAX_CHAIN_ID).optional(),
  key: fields.key.optional().openapi({ description: 'Exact key' }),
});
export type OnchainAssetListQuery = z.infer<typeof onchainAssetListQuery>;

const customerDifferenceSchema = z
  .strictObject({
    user_id: z.string().nullable().openapi({ description: 'Null for a holder that is none of the platform wallets of this tenant' }),
    wallet_address: z.string().nullable(),
    ledger_balance: baseUnits,
    onchain_balance: baseUnits,
    difference: baseUnits.openapi({ description: 'onchain_balance - ledger_balance' }),
  })
  .openapi('ReconciliationCustomer');

/** Settled ledger vs indexed chain for one asset; every amount in base units. */
export const reconciliationSchema = z
  .strictObject({
    asset_id: z.string(),
    key: z.string().nullable(),
    decimals: z.number().int(),
    ledger_total: baseUnits,
    onchain_total: baseUnits,
    difference: baseUnits.openapi({ description: 'onchain_total - ledger_total' }),
    last_indexed_block: z.number().int().nullable().openapi({ description: 'The indexer cursor: the onchain side is as of this block' }),
    total_supply: baseUnits.nullable().openapi({
      description: 'Every unit of the token in existence as of `last_indexed_block`, whoever holds it: `totalSupply()` of an erc20 (or, when the chain cannot be read, what the indexed Transfer logs minted minus burned), the indexed mints minus burns of an erc721 or erc1155. Null until the asset is indexed.',
    }),
    supply_source: z.enum(['total_supply', 'indexed_transfers']).openapi({ description: 'Where `total_supply` comes from: the contract\'s `totalSupply()` or the indexed Transfer logs' }),
    supply_difference: baseUnits.nullable().openapi({
      description: '`total_supply` - `ledger_total`: anything but 0 means units exist that this tenant\'s ledger does not account for (minted outside the platform, or before the asset was registered). Null while `total_supply` is.',
    }),
    customers: z.array(customerDifferenceSchema).openapi({ description: 'Only the customers whose two sides differ' }),
  })
  .openapi('OnchainAssetReconciliation');

export type ReconciliationView = z.infer<typeof reconciliationSchema>;
export type ReconciliationCustomerView = z.infer<typeof customerDifferenceSchema>;
