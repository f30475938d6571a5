import { encodeDeployData, encodeFunctionData, getAddress, type Address, type Hex } from 'viem';
import type { OnchainAsset, OnchainOperation } from '../db/schema';
import { referenceContracts } from './artifacts.generated';

/** An operation no transaction can carry out (no contract or recipient, a burn of a non-ERC-20): it fails at once. */
export class OperationRejected extends Error {
  override readonly name = 'OperationRejected';
}

/** What a transaction of an operation carries: `to` is absent for a contract creation. */
export type OperationCall = { to?: Address; data: Hex; fallbackGas: bigint };

/**
 * Gas for a call whose estimate reverts: the transaction is still sent so that it is mined as a
 * failed receipt and consumes its nonce (an unsent nonce would stall every later one).
 */
const CALL_FALLBACK_GAS = 300_000n;
const DEPLOY_FALLBACK_GAS = 5_000_000n;

/** ERC-1155 metadata URI of platform collections: token metadata is served by the tenant, not the chain. */
const MULTI_TOKEN_URI = '';

function deployCall(asset: OnchainAsset, owner: Address): OperationCall {
  const name = asset.name ?? asset.key ?? 'Loyalty asset';
  const symbol = asset.symbol ?? '';
  const data =
    asset.type === 'erc20'
      ? encodeDeployData({ ...referenceContracts.erc20, args: [name, symbol, asset.decimals ?? 0, owner] })
      : asset.type === 'erc721'
        ? encodeDeployData({ ...referenceContracts.erc721, args: [name, symbol, owner] })
        : encodeDeployData({ ...referenceContracts.erc1155, args: [MULTI_TOKEN_URI, owner] });
  return { data, fallbackGas: DEPLOY_FALLBACK_GAS };
}

function tokenCall(operation: OnchainOperation, asset: OnchainAsset): OperationCall {
  if (!asset.assetAddress || !operation.recipient) throw new OperationRejected(`operation ${operation.id} has no contract or recipient`);
  const to = getAddress(asset.assetAddress);
  const recipient = getAddress(operation.recipient);
  const amount = BigInt(operation.amount ?? '1');
  if (operation.kind === 'burn' || operation.kind === 'opening_burn') {
    if (asset.type !== 'erc20') throw new OperationRejected(`operation ${operation.id}: only ERC-20 assets are burned`);
    return { to, data: encodeFunctionData({ abi: referenceContracts.erc20.abi, functionName: 'burn', args: [recipient, amount] }), fallbackGas: CALL_FALLBACK_GAS };
  }
  const data =
    asset.type === 'erc20'
      ? encodeFunctionData({ abi: referenceContracts.erc20.abi, functionName: 'mint', args: [recipient, amount] })
      : asset.type === 'erc721'
        ? encodeFunctionData({ abi: referenceContracts.erc721.abi, functionName: 'mint', args: [recipient] })
        : encodeFunctionData({ abi: referenceContracts.erc1155.abi, functionName: 'mint', args: [recipient, BigInt(operation.tokenId ?? '0'), amount] });
  return { to, data, fallbackGas: CALL_FALLBACK_GAS };
}

/**
 * The contract call an operation makes, as the relayer: the reference contract's constructor for a
 * deploy (owner = relayer), else the owner-only `mint`/`burn` every platform asset exposes
 * (docs/ONCHAIN.md, "Contract interface").
 */
export function operationCall(operation: OnchainOperation, asset: OnchainAsset, relayer: Address): OperationCall {
  return operation.kind === 'deploy' ? deployCall(asset, relayer) : tokenCall(operation, asset);
}
