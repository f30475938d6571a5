import { z } from '@hono/zod-openapi';
import { dateTime } from './common';
import { onchainAssetSchema } from './internal-transaction';

export const internalWalletSchema = z
  .strictObject({
    id: z.string(),
    address: z.string(),
    user_id: z.string(),
    wallet_kind: z.string().openapi({ example: 'custodial' }),
    label: z.string(),
    created_at: dateTime,
    updated_at: dateTime,
    deleted_at: dateTime.nullable(),
  })
  .openapi('InternalWallet');

/** The spec's customer asset balance: one holding of one registered asset in one wallet. */
export const customerAssetBalanceSchema = z
  .strictObject({
    id: z.string(),
    asset_address: z.string(),
    balance: z.string().openapi({ description: 'Base units, decimal string', example: '1000000000000000000' }),
    chain_id: z.number().int(),
    user_address: z.string(),
    token_id: z.string().openapi({ description: 'ERC-721/1155 token id; empty for ERC-20' }),
    last_updated_block: z.number().int(),
    created_at: dateTime,
    updated_at: dateTime,
    onchain_asset: onchainAssetSchema,
    internal_wallet: internalWalletSchema,
  })
  .openapi('CustomerAssetBalance');

export type InternalWalletView = z.infer<typeof internalWalletSchema>;
export type CustomerAssetBalanceView = z.infer<typeof customerAssetBalanceSchema>;
