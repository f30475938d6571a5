import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

export const onchainAssetTypes = ['erc20', 'erc721', 'erc1155'] as const;

export const onchainAssets = sqliteTable(
  'onchain_assets',
  {
    id: id(),
    tenantId: tenantId(),
    key: text('key'),
    type: text('type').notNull(),
    chainId: integer('chain_id').notNull(),
    assetAddress: text('asset_address').notNull(),
    decimals: integer('decimals'),
    name: text('name'),
    symbol: text('symbol'),
    status: text('status').notNull().default('active'),
    deployTxHash: text('deploy_tx_hash'),
    deployedAt: text('deployed_at'),
    metadata: text('metadata', { mode: 'json' }),
    totalOwners: integer('total_owners'),
    totalTxns: integer('total_txns'),
    lastIndexedBlock: integer('last_indexed_block'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('onchain_assets_tenant_key').on(t.tenantId, t.key),
    index('onchain_assets_tenant_created').on(t.tenantId, t.createdAt),
  ],
);

export const blockchainTransactionStatuses = [
  'initialized',
  'submitted',
  'pending',
  'succeeded',
  'failed',
  'replaced',
  'canceled',
] as const;

export const blockchainTransactions = sqliteTable(
  'blockchain_transactions',
  {
    id: id(),
    tenantId: tenantId(),
    chainId: integer('chain_id'),
    metadata: text('metadata', { mode: 'json' }),
    receiptBlockHash: text('receipt_block_hash'),
    receiptBlockNumber: text('receipt_block_number'),
    receiptBlockTimestamp: integer('receipt_block_timestamp'),
    receiptGasPrice: text('receipt_gas_price'),
    receiptGasUsed: text('receipt_gas_used'),
    receiptStatus: integer('receipt_status'),
    receiptTransactionIndex: integer('receipt_transaction_index'),
    txData: text('tx_data'),
    txFrom: text('tx_from'),
    txTo: text('tx_to'),
    txGasLimit: text('tx_gas_limit'),
    txGasPrice: text('tx_gas_price'),
    txMaxFeePerGas: text('tx_max_fee_per_gas'),
    txMaxPriorityFeePerGas: text('tx_max_priority_fee_per_gas'),
    txNonce: integer('tx_nonce'),
    txType: integer('tx_type'),
    txValue: text('tx_value'),
    txHash: text('tx_hash'),
    txnStatus: text('txn_status').notNull().default('initialized'),
    ...timestamps,
  },
  (t) => [
    index('blockchain_transactions_tenant_created').on(t.tenantId, t.createdAt),
    index('blockchain_transactions_hash').on(t.txHash),
  ],
);

/** Links an internal transaction to every blockchain transaction behind it (re-sends included). */
export const blockchainTransactionLinks = sqliteTable(
  'blockchain_transaction_links',
  {
    id: id(),
    tenantId: tenantId(),
    internalTransactionId: text('internal_transaction_id').notNull(),
    blockchainTransactionId: text('blockchain_transaction_id').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    uniqueIndex('blockchain_transaction_links_pair').on(
      t.tenantId,
      t.internalTransactionId,
      t.blockchainTransactionId,
    ),
  ],
);

export const customerAssetBalances = sqliteTable(
  'customer_asset_balances',
  {
    id: id(),
    tenantId: tenantId(),
    userId: text('user_id').notNull(),
    onchainAssetId: text('onchain_asset_id').notNull(),
    internalWalletId: text('internal_wallet_id').notNull(),
    assetAddress: text('asset_address').notNull(),
    chainId: integer('chain_id').notNull(),
    userAddress: text('user_address').notNull(),
    tokenId: text('token_id').notNull().default(''),
    /** Base-unit amount as a decimal string (may exceed 2^53). */
    balance: text('balance').notNull(),
    lastUpdatedBlock: integer('last_updated_block').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('customer_asset_balances_holding').on(
      t.tenantId,
      t.onchainAssetId,
      t.userAddress,
      t.tokenId,
    ),
    index('customer_asset_balances_tenant_user').on(t.tenantId, t.userId, t.createdAt),
  ],
);

export type OnchainAsset = typeof onchainAssets.$inferSelect;
export type BlockchainTransaction = typeof blockchainTransactions.$inferSelect;
export type CustomerAssetBalance = typeof customerAssetBalances.$inferSelect;
