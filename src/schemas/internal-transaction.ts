import { z } from '@hono/zod-openapi';
import { transactionStatuses, transactionTypes } from '../db/schema';
import { pageQuery } from '../lib/paging';
import { anyJson, dateTime, nullableRef, resourceId, tenantBriefSchema, userBriefSchema } from './common';

export const onchainAssetSchema = z
  .strictObject({
    id: z.string().optional(),
    asset_address: z.string().optional(),
    chain_id: z.number().optional(),
    decimals: z.number().nullable().optional(),
    deploy_tx_hash: z.string().nullable().optional(),
    deployed_at: dateTime.nullable().optional(),
    key: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
    symbol: z.string().nullable().optional(),
    status: z.string().optional(),
    type: z.string().optional(),
    metadata: anyJson.optional(),
    total_owners: z.number().nullable().optional(),
    total_txns: z.number().nullable().optional(),
    created_at: dateTime.nullable().optional(),
    updated_at: dateTime.nullable().optional(),
  })
  .openapi('OnchainAsset');

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const blockchainTransactionSchema = z
  .strictObject({
    id: z.string(),
    chain_id: nullable(z.number()),
    created_at: nullable(dateTime),
    updated_at: nullable(dateTime),
    metadata: anyJson.optional(),
    receipt_block_hash: nullable(z.string()),
    receipt_block_number: nullable(z.string()),
    receipt_block_timestamp: nullable(z.number()),
    receipt_gas_price: nullable(z.string()),
    receipt_gas_used: nullable(z.string()),
    receipt_status: nullable(z.number()),
    receipt_transaction_index: nullable(z.number()),
    tx_data: nullable(z.string()),
    tx_from: nullable(z.string()),
    tx_to: nullable(z.string()),
    tx_gas_limit: nullable(z.string()),
    tx_gas_price: nullable(z.string()),
    tx_max_fee_per_gas: nullable(z.string()),
    tx_max_priority_fee_per_gas: nullable(z.string()),
    tx_nonce: nullable(z.number()),
    tx_type: nullable(z.number()),
    tx_value: nullable(z.string()),
    tx_hash: nullable(z.string()),
    txn_status: nullable(z.string().openapi({ example: 'succeeded' })),
  })
  .openapi('BlockchainTransaction');

/** The spec's internal transaction: no unlisted fields. */
export const internalTransactionSchema = z
  .strictObject({
    id: z.string(),
    tenant_id: z.string().nullable(),
    user_id: z.string().nullable(),
    onchain_asset_id: z.string().nullable(),
    redemption_id: z.string().nullable(),
    type: z.string().openapi({ enum: [...transactionTypes] }),
    amount: z.string().nullable().openapi({ example: '150' }),
    metadata: anyJson,
    notes: z.string().nullable(),
    status: z.string().openapi({ enum: [...transactionStatuses] }),
    created_at: dateTime.nullable(),
    updated_at: dateTime.nullable(),
    onchain_asset: nullableRef(onchainAssetSchema).optional(),
    reward: z.strictObject({ id: z.string(), title: z.string() }).nullable().optional(),
    blockchain_transaction_links: z
      .strictObject({ blockchain_transaction: z.array(blockchainTransactionSchema).nullable() })
      .nullable()
      .optional(),
    tenant: nullableRef(tenantBriefSchema).optional(),
    user: nullableRef(userBriefSchema).optional(),
  })
  .openapi('InternalTransaction');

export type InternalTransactionView = z.infer<typeof internalTransactionSchema>;
export type OnchainAssetView = z.infer<typeof onchainAssetSchema>;
export type BlockchainTransactionView = z.infer<typeof blockchainTransactionSchema>;

/** Filters of both transaction lists (portal and gateway); values outside the spec's enums are a 422. */
export const internalTransactionListQuery = pageQuery.extend({
  type: z.enum(transactionTypes).optional(),
  status: z.enum(transactionStatuses).optional(),
  user_id: resourceId.optional().openapi({ description: 'Only the transactions of this customer' }),
});

export type InternalTransactionListQuery = z.infer<typeof internalTransactionListQuery>;
