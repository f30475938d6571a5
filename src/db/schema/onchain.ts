import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

export const onchainAssetTypes = ['erc20', 'erc721', 'erc1155'] as const;
/**
 * `deploying` until the platform's deploy transaction succeeds (`failed` if it does not); `active`
 * and `inactive` are set by admins: an inactive asset is neither delivered nor mirrored.
 */
export const onchainAssetStatuses = ['deploying', 'active', 'inactive', 'failed'] as const;
/** The asset whose key is `xp` is the tenant's XP token: the ledger is mirrored onto it. */
export const XP_ASSET_KEY = 'xp';

export const onchainAssets = sqliteTable(
  'onchain_assets',
  {
    id: id(),
    tenantId: tenantId(),
    key: text('key'),
    type: text('type', { enum: onchainAssetTypes }).notNull(),
    chainId: integer('chain_id').notNull(),
    /** Null while a platform deployment is under way. */
    assetAddress: text('asset_address'),
    decimals: integer('decimals'),
    name: text('name'),
    symbol: text('symbol'),
    status: text('status', { enum: onchainAssetStatuses }).notNull().default('active'),
    deployTxHash: text('deploy_tx_hash'),
    deployedAt: text('deployed_at'),
    metadata: text('metadata', { mode: 'json' }),
    totalOwners: integer('total_owners'),
    totalTxns: integer('total_txns'),
    /** Indexer cursor: the last block whose logs are in customer_asset_balances. */
    lastIndexedBlock: integer('last_indexed_block'),
    /** Genesis hash of the chain the cursor belongs to: a reset local chain restarts indexing. */
    indexedGenesisHash: text('indexed_genesis_hash'),
    /**
     * Base units minted minus burned (Transfer logs from or to the zero address, any holder) up to
     * the cursor: the supply reconciliation compares with the ledger (decimal string).
     */
    indexedSupply: text('indexed_supply'),
    /**
     * An XP token's openings (db/schema/xp-openings.ts): how many times it became active (a trigger
     * counts, src/db/sql/xp-token-openings.sql), the list position (`seq`) of the last customer opened in this
     * activation, and when every customer was. `openingBlock`: for a registered token, the block whose balances the first
     * opening takes as already held by customers' wallets.
     */
    openingEpoch: integer('opening_epoch').notNull().default(0),
    openingCursor: integer('opening_cursor'),
    openingCompletedAt: text('opening_completed_at'),
    openingBlock: integer('opening_block'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('onchain_assets_tenant_key').on(t.tenantId, t.key),
    uniqueIndex('onchain_assets_tenant_address').on(t.tenantId, t.chainId, t.assetAddress),
    index('onchain_assets_tenant_created').on(t.tenantId, t.createdAt),
    index('onchain_assets_status').on(t.status),
  ],
);

/** `opening_mint` / `opening_burn`: a customer's XP from before the token, onto it (db/schema/xp-openings.ts). */
export const onchainOperationKinds = ['deploy', 'mint', 'burn', 'opening_mint', 'opening_burn'] as const;
/**
 * `waiting` for the operation it depends on, `queued` until its first signed transaction is
 * recorded, `submitted` while a transaction of it is on its way, then `succeeded`, `failed`, or
 * `canceled` (never sent, e.g. its dependency failed).
 */
export const onchainOperationStatuses = ['waiting', 'queued', 'submitted', 'succeeded', 'failed', 'canceled'] as const;

/**
 * One thing the platform must do on a chain (deploy an asset, mint or burn), the unit that the
 * settlement queue carries by id. Its blockchain transactions are the signed attempts (same nonce,
 * re-sent with higher fees); it holds its nonce, so a redelivered message never signs a second one.
 */
export const onchainOperations = sqliteTable(
  'onchain_operations',
  {
    id: id(),
    tenantId: tenantId(),
    kind: text('kind', { enum: onchainOperationKinds }).notNull(),
    status: text('status', { enum: onchainOperationStatuses }).notNull(),
    chainId: integer('chain_id').notNull(),
    onchainAssetId: text('onchain_asset_id').notNull(),
    internalTransactionId: text('internal_transaction_id'),
    redemptionId: text('redemption_id'),
    /** Sent only after this operation succeeded (a reward is delivered before the XP is burned). */
    dependsOnOperationId: text('depends_on_operation_id'),
    recipient: text('recipient'),
    /** Base units as a decimal string; null for an XP mirror (computed from the ledger amount) and deploys. */
    amount: text('amount'),
    tokenId: text('token_id'),
    relayerAddress: text('relayer_address'),
    nonce: integer('nonce'),
    /** Failed tries to reach the chain (RPC down, ...): the next one waits longer. */
    errorCount: integer('error_count').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: text('next_attempt_at'),
    /**
     * The gas limit reserved from the tenant's daily budget before the nonce (data/gas-budget.ts),
     * and the token of the reservation that took it (so a batch can tell its own from an earlier one).
     */
    reservedGas: integer('reserved_gas'),
    gasReservation: text('gas_reservation'),
    ...timestamps,
  },
  (t) => [
    index('onchain_operations_status').on(t.status, t.nextAttemptAt),
    index('onchain_operations_tenant_transaction').on(t.tenantId, t.internalTransactionId),
    index('onchain_operations_tenant_asset').on(t.tenantId, t.onchainAssetId, t.status),
    index('onchain_operations_dependency').on(t.dependsOnOperationId),
    // Counts a tenant's platform deploys against TENANT_DEPLOY_LIMIT (deploys are few; mints are not indexed here).
    index('onchain_operations_tenant_deploys').on(t.tenantId).where(sql`${t.kind} = 'deploy'`),
    // No two operations ever hold one nonce of one relayer on one chain.
    uniqueIndex('onchain_operations_nonce')
      .on(t.chainId, t.relayerAddress, t.nonce)
      .where(sql`${t.nonce} IS NOT NULL`),
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
    txnStatus: text('txn_status', { enum: blockchainTransactionStatuses }).notNull().default('initialized'),
    /** The operation this is an attempt of, and which attempt (1 = first signature). */
    operationId: text('operation_id'),
    attempt: integer('attempt'),
    /** The signed transaction, stored before it is broadcast so a retry re-sends these same bytes. */
    rawTransaction: text('raw_transaction'),
    ...timestamps,
  },
  (t) => [
    index('blockchain_transactions_tenant_created').on(t.tenantId, t.createdAt),
    index('blockchain_transactions_hash').on(t.txHash),
    uniqueIndex('blockchain_transactions_operation_attempt').on(t.operationId, t.attempt),
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
export type OnchainAssetType = (typeof onchainAssetTypes)[number];
export type OnchainAssetStatus = (typeof onchainAssetStatuses)[number];
export type OnchainOperation = typeof onchainOperations.$inferSelect;
export type OnchainOperationKind = (typeof onchainOperationKinds)[number];
export type OnchainOperationStatus = (typeof onchainOperationStatuses)[number];
export type BlockchainTransactionStatus = (typeof blockchainTransactionStatuses)[number];
export type BlockchainTransaction = typeof blockchainTransactions.$inferSelect;
export type CustomerAssetBalance = typeof customerAssetBalances.$inferSelect;
