import type { CustomerAssetBalance, InternalWallet, OnchainAsset } from '../db/schema';
import type { CustomerAssetBalanceView, InternalWalletView } from '../schemas/balance';
import { toOnchainAssetView } from './internal-transaction';

export function toInternalWalletView(wallet: InternalWallet): InternalWalletView {
  return {
    id: wallet.id,
    address: wallet.address,
    user_id: wallet.userId,
    wallet_kind: wallet.walletKind,
    label: wallet.label,
    created_at: wallet.createdAt,
    updated_at: wallet.updatedAt,
    deleted_at: wallet.deletedAt,
  };
}

export function toCustomerAssetBalanceView(balance: CustomerAssetBalance, asset: OnchainAsset, wallet: InternalWallet): CustomerAssetBalanceView {
  return {
    id: balance.id,
    asset_address: balance.assetAddress,
    balance: balance.balance,
    chain_id: balance.chainId,
    user_address: balance.userAddress,
    token_id: balance.tokenId,
    last_updated_block: balance.lastUpdatedBlock,
    created_at: balance.createdAt,
    updated_at: balance.updatedAt,
    onchain_asset: toOnchainAssetView(asset),
    internal_wallet: toInternalWalletView(wallet),
  };
}
