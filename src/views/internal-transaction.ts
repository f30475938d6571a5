import type { InternalTransactionDetails } from '../data/internal-transactions';
import type { BlockchainTransaction, Customer, InternalTransaction, OnchainAsset, Tenant } from '../db/schema';
import { toTenantBrief, toUserBrief } from './briefs';
import type { BlockchainTransactionView, InternalTransactionView, OnchainAssetView } from '../schemas/internal-transaction';

/** The spec's asset; `asset_address` is left out (not null: the spec types it as a plain string) while a deploy is under way. */
export function toOnchainAssetView(asset: OnchainAsset): OnchainAssetView {
  return {
    id: asset.id,
    ...(asset.assetAddress === null ? {} : { asset_address: asset.assetAddress }),
    chain_id: asset.chainId,
    decimals: asset.decimals,
    deploy_tx_hash: asset.deployTxHash,
    deployed_at: asset.deployedAt,
    key: asset.key,
    name: asset.name,
    symbol: asset.symbol,
    status: asset.status,
    type: asset.type,
    metadata: asset.metadata ?? null,
    total_owners: asset.totalOwners,
    total_txns: asset.totalTxns,
    created_at: asset.createdAt,
    updated_at: asset.updatedAt,
  };
}

export function toBlockchainTransactionView(tx: BlockchainTransaction): BlockchainTransactionView {
  return {
    id: tx.id,
    chain_id: tx.chainId,
    created_at: tx.createdAt,
    updated_at: tx.updatedAt,
    metadata: tx.metadata ?? null,
    receipt_block_hash: tx.receiptBlockHash,
    receipt_block_number: tx.receiptBlockNumber,
    receipt_block_timestamp: tx.receiptBlockTimestamp,
    receipt_gas_price: tx.receiptGasPrice,
    receipt_gas_used: tx.receiptGasUsed,
    receipt_status: tx.receiptStatus,
    receipt_transaction_index: tx.receiptTransactionIndex,
    tx_data: tx.txData,
    tx_from: tx.txFrom,
    tx_to: tx.txTo,
    tx_gas_limit: tx.txGasLimit,
    tx_gas_price: tx.txGasPrice,
    tx_max_fee_per_gas: tx.txMaxFeePerGas,
    tx_max_priority_fee_per_gas: tx.txMaxPriorityFeePerGas,
    tx_nonce: tx.txNonce,
    tx_type: tx.txType,
    tx_value: tx.txValue,
    tx_hash: tx.txHash,
    txn_status: tx.txnStatus,
  };
}

/** The spec's object; `reward` is filled only for redeem rows, null otherwise. */
export function toInternalTransactionView(tx: InternalTransaction, details: InternalTransactionDetails): InternalTransactionView {
  return {
    id: tx.id,
    tenant_id: tx.tenantId,
    user_id: tx.userId,
    onchain_asset_id: tx.onchainAssetId,
    redemption_id: tx.redemptionId,
    type: tx.type,
    amount: String(tx.amount),
    metadata: tx.metadata ?? null,
    notes: tx.notes,
    status: tx.status,
    created_at: tx.createdAt,
    updated_at: tx.updatedAt,
    onchain_asset: details.asset ? toOnchainAssetView(details.asset) : null,
    reward: tx.type === 'xp_redeem' ? (details.reward ?? null) : null,
    blockchain_transaction_links: { blockchain_transaction: details.blockchainTransactions.map(toBlockchainTransactionView) },
  };
}

/** Who the portal sees behind a transaction: the tenant and the customer (when it still exists). */
export type AdminJoin = {
  tenant: Pick<Tenant, 'id' | 'name' | 'slug'>;
  customer: Pick<Customer, 'id' | 'username' | 'email'> | undefined;
};

/** The portal's variant, with the `tenant` and `user` briefs the spec adds when an admin joins them. */
export function toAdminInternalTransactionView(tx: InternalTransaction, details: InternalTransactionDetails, join: AdminJoin): InternalTransactionView {
  const { tenant, customer } = join;
  return {
    ...toInternalTransactionView(tx, details),
    tenant: toTenantBrief(tenant),
    user: customer ? toUserBrief(customer) : null,
  };
}
